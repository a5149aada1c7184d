#!/usr/bin/env python3
"""jaxcb-check: find host-callback code that a JAX upgrade breaks, without running it.

The checker reads Python source with the standard library's `ast` and reports, for each
finding, ``path:line:col``, a rule id (``JXC001``…), a one-line message and the
replacement. It never imports or executes the code it checks, and it imports neither JAX
nor anything outside the standard library: it runs where JAX is not installed (the site
build renders its rule table) and as a plain script (the pre-commit hook runs this file).
The tree is walked with an explicit stack, so a deeply nested expression is checked like
any other.

Names are resolved through the module's imports (``import jax``, ``from jax import
pure_callback``, ``from jax.experimental import host_callback as hcb``, aliases, imports
inside functions), so ``hcb.id_tap(...)`` and ``jax.experimental.host_callback.id_tap``
are the same finding. Functions passed to a callback or to ``jax.vmap`` are found by name
in the enclosing scopes of the same module, through ``functools.partial`` and ``jax.jit``.

``RULES`` is the one rule table: what each rule finds, its replacement, whether it is a
heuristic (it can report correct code or miss a real case) and the JAX facts it rests on.
A finding is silenced by ``# noqa: JXC00N`` on the line it is reported on, a rule for a
whole run by ``--ignore`` (``--select`` keeps only the rules named), and both can be set in
a ``[tool.jaxcb-check]`` table of the nearest ``pyproject.toml`` above the working
directory (``select = ["JXC001", ...]``, ``ignore = [...]``; a prefix such as ``"JXC00"``
names every rule it starts). An import
inside a ``try`` whose handler catches ``ImportError`` (or inside such a handler) is a
version probe, not a migration problem, and is not reported.

Exit status: 0 when nothing is found, 1 when something is, 2 when any path could not be
checked or the configuration is wrong. A path that cannot be checked (missing, unreadable,
binary, not valid Python, a directory without Python files) gets a message on stderr naming
it, and is listed under ``errors`` in the JSON output; the other paths are still checked,
but the run never passes while a file went unchecked.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import io
import json
import os
import re
import stat
import sys
import tokenize
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

__all__ = [
    "RULES",
    "Config",
    "Fact",
    "Finding",
    "Report",
    "Rule",
    "Unchecked",
    "check_paths",
    "check_source",
    "load_config",
    "main",
]

CHANGELOG = "https://github.com/jax-ml/jax/blob/main/CHANGELOG.md"
SKIP_DIRS = frozenset({".git", ".tox", ".venv", "node_modules", "__pycache__"})


@dataclasses.dataclass(frozen=True)
class Fact:
    """One fact about JAX that a rule rests on, and where it is written."""

    text: str
    source: str
    url: str


@dataclasses.dataclass(frozen=True)
class Rule:
    id: str
    title: str  # what it finds, a short phrase
    message: str  # the one-line message of a finding
    replacement: str
    heuristic: bool
    facts: tuple[Fact, ...]
    note: str = ""  # what it may miss or over-report (for heuristics) or skips on purpose


_HCB_REMOVED = (
    Fact("deprecated in JAX 0.4.26", "JAX changelog, jax 0.4.26", CHANGELOG),
    Fact(
        "removed in JAX 0.4.35: its APIs raise NotImplementedError",
        "JAX changelog, jax 0.4.35 and 0.7.1",
        CHANGELOG,
    ),
    Fact(
        "the module itself is gone in JAX 0.8.0 (ImportError)",
        "JAX changelog, jax 0.8.0",
        CHANGELOG,
    ),
)
_HCB_MIGRATION = Fact(
    "the replacements: id_tap → io_callback or debug.callback, call → pure_callback or "
    "io_callback, barrier_wait → jax.effects_barrier()",
    "jax-ml/jax#20385",
    "https://github.com/jax-ml/jax/issues/20385",
)
_VMAP_DEFAULT = Fact(
    "the implicit vmap default (a sequential loop) and `vectorized` deprecated in JAX 0.4.35",
    "JAX changelog, jax 0.4.35 (#23881)",
    CHANGELOG,
)
_NO_RAISE = Fact(
    "raising in a pure_callback breaks its contract: the program's behaviour is undefined "
    "and depends on the backend",
    "JAX docs, External callbacks, “pure_callback and exceptions”",
    "https://docs.jax.dev/en/latest/external-callbacks.html",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "JXC001",
        "`host_callback.id_tap`",
        "host_callback.id_tap was removed from JAX",
        "jax.debug.callback(fn, x), or jax.experimental.io_callback(fn, None, x, ordered=True); "
        "fn gets no `transforms` argument and the call returns None, not x",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
    ),
    Rule(
        "JXC002",
        "`host_callback.id_print`",
        "host_callback.id_print was removed from JAX",
        'jax.debug.print("{x}", x=x); it returns None, not x',
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
    ),
    Rule(
        "JXC003",
        "`host_callback.call`",
        "host_callback.call was removed from JAX",
        "jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method=...) for a pure fn, "
        "jax.experimental.io_callback(fn, result_shape_dtypes, *args) for one with side effects",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
    ),
    Rule(
        "JXC004",
        "`host_callback.barrier_wait`",
        "host_callback.barrier_wait was removed from JAX",
        "jax.effects_barrier()",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
    ),
    Rule(
        "JXC005",
        "an import or other use of `jax.experimental.host_callback`",
        "jax.experimental.host_callback no longer exists",
        "remove it; port each id_tap, id_print, call and barrier_wait (JXC001–JXC004)",
        False,
        _HCB_REMOVED,
        "an import guarded by `try: … except ImportError` is a version probe and not reported",
    ),
    Rule(
        "JXC006",
        "`vectorized=` passed to `pure_callback` or `ffi_call`",
        "the vectorized argument was removed from JAX",
        'for vectorized=True: vmap_method="expand_dims" if fn broadcasts, "broadcast_all" if it '
        'needs equal shapes; for vectorized=False: vmap_method="sequential"',
        False,
        (
            _VMAP_DEFAULT,
            Fact("`vectorized` removed in JAX 0.6.0", "JAX changelog, jax 0.6.0", CHANGELOG),
            Fact(
                "JAX 0.6.0 to 0.9.x raise ValueError at the call; from 0.10.0 pure_callback passes "
                "`vectorized=` on to the host function as a keyword argument (a TypeError inside "
                "a JaxRuntimeError when it runs, seen on 0.10.2 and 0.12.0.1)",
                "jax/_src/callback.py `pure_callback`, jax v0.9.2 and v0.10.0",
                "https://github.com/jax-ml/jax/blob/jax-v0.10.0/jax/_src/callback.py",
            ),
        ),
    ),
    Rule(
        "JXC007",
        "`pure_callback` or `ffi_call` without `vmap_method`",
        "no vmap_method: if jax.vmap batches its operands, this call raises NotImplementedError",
        'vmap_method="sequential", the old default: one host call per element; "expand_dims" '
        'or "broadcast_all" if fn handles a batch axis',
        True,
        (
            _VMAP_DEFAULT,
            Fact(
                "since JAX 0.6.0, vmap without vmap_method raises NotImplementedError",
                "jax v0.6.0 source: jax/_src/ffi.py `ffi_batching_rule`, pure_callback docstring",
                "https://github.com/jax-ml/jax/blob/jax-v0.6.0/jax/_src/ffi.py",
            ),
        ),
        "reported whether or not the call is ever vmapped: a call whose operands never carry "
        "a batch axis (never vmapped, or the batch axis taken off first) works; certain only "
        "when the call is under jax.vmap in the same module; a call passing `**kwargs` is "
        "skipped",
    ),
    Rule(
        "JXC008",
        "an import of `jax.experimental.export`",
        "jax.experimental.export was removed from JAX",
        "from jax import export (the API changed too: see JAX's export migration guide)",
        False,
        (
            Fact(
                "jax.export added, jax.experimental.export deprecated in JAX 0.4.30",
                "JAX changelog, jax 0.4.30",
                CHANGELOG,
            ),
            Fact(
                "jax.experimental.export removed in JAX 0.4.36",
                "JAX changelog, jax 0.4.36",
                CHANGELOG,
            ),
        ),
        "an import guarded by `try: … except ImportError` is a fallback and not reported",
    ),
    Rule(
        "JXC009",
        "a string formatted in Python (f-string, `.format`, `%`, `+`) passed to `jax.debug.print`",
        "f-string in jax.debug.print: it is formatted once, at trace time, with tracers",
        'jax.debug.print("x = {x}", x=x): JAX fills the placeholders with the runtime values',
        True,
        (
            Fact(
                "`fmt` cannot be an f-string: f-strings are formatted immediately",
                "JAX docs, Compiled prints and breakpoints",
                "https://docs.jax.dev/en/latest/debugging/print_breakpoint.html",
            ),
        ),
        "a string built from plain Python values known at trace time prints correctly, and "
        "the rule cannot tell them from arrays; an f-string that also leaves an escaped "
        "`{{placeholder}}` for JAX is taken as static text and not reported",
    ),
    Rule(
        "JXC010",
        "`raise` in a function passed to `pure_callback`",
        "raise in a pure_callback host function: the behaviour is undefined",
        "return a value (a flag, NaN) and check it in JAX; jax.experimental.checkify for "
        "runtime errors; io_callback for a host call that may fail",
        False,
        (_NO_RAISE,),
        "only functions defined in the same module and passed by name, functools.partial or "
        "a lambda that calls one; a raise the function catches itself is reported too",
    ),
    Rule(
        "JXC011",
        "`assert` in a function passed to `pure_callback`",
        "assert in a pure_callback host function: a failing assert raises, which is undefined",
        "return a value (a flag, NaN) and check it in JAX; jax.experimental.checkify for "
        "runtime checks",
        True,
        (_NO_RAISE,),
        "an assert that can never fail is harmless; the rule reports every one",
    ),
    Rule(
        "JXC012",
        "`io_callback(..., ordered=True)` under `jax.vmap` in the same module",
        "ordered io_callback under jax.vmap raises ValueError",
        "ordered=False (one call per element, order not kept), or jax.lax.map instead of "
        "jax.vmap to keep the order",
        True,
        (
            Fact(
                "vmap of io_callback(ordered=True) raises ValueError(“Cannot `vmap` ordered "
                "IO callback.”), in every JAX since io_callback appeared (0.4.2)",
                "jax/_src/callback.py `io_callback_batching_rule`, jax v0.4.2 to 0.11; JAX "
                "docs, External callbacks, footnote 2",
                "https://docs.jax.dev/en/latest/external-callbacks.html",
            ),
        ),
        "sees functions decorated with or passed to jax.vmap in this module, and the functions "
        "they name, and io_callback called directly or through functools.partial(io_callback, "
        "ordered=True); misses vmaps in other modules, reports a function that is also called "
        "without vmap",
    ),
    Rule(
        "JXC013",
        "an import or other use of `jax.extend.ffi`",
        "jax.extend.ffi no longer exists: it moved to jax.ffi",
        "jax.ffi (ffi_call, register_ffi_target, pycapsule, include_dir: the same names)",
        False,
        (
            Fact("jax.extend.ffi added in JAX 0.4.32", "JAX changelog, jax 0.4.32", CHANGELOG),
            Fact(
                "moved to jax.ffi and deprecated in JAX 0.5.0, removed in JAX 0.7.0",
                "JAX changelog, jax 0.5.0 and 0.7.0",
                CHANGELOG,
            ),
            Fact(
                "`import jax.extend.ffi` raises ModuleNotFoundError (seen on 0.10.2 and 0.12.0.1)",
                "measured by the jaxcb project",
                "https://github.com/jax-ml/jax/blob/main/CHANGELOG.md",
            ),
        ),
        "an import guarded by `try: … except ImportError` is a version probe and not reported",
    ),
    Rule(
        "JXC014",
        "`ffi_call` given its operands inline",
        "ffi_call(name, result_shape_dtypes, *operands): ffi_call takes no operands, it "
        "returns the function to call with them",
        "jax.ffi.ffi_call(name, result_shape_dtypes, vmap_method=...)(*operands)",
        False,
        (
            Fact(
                "ffi_call with inline arguments no longer supported in JAX 0.6.0: it always "
                "returns a callable",
                "JAX changelog, jax 0.6.0",
                CHANGELOG,
            ),
            Fact(
                "TypeError: ffi_call() takes 2 positional arguments but 3 were given (seen on "
                "0.10.2 and 0.12.0.1)",
                "measured by the jaxcb project",
                "https://docs.jax.dev/en/latest/_autosummary/jax.ffi.ffi_call.html",
            ),
        ),
    ),
    Rule(
        "JXC015",
        "a `vmap_method` that JAX does not know",
        "vmap_method is not one of the values JAX accepts: the call raises ValueError",
        'one of "sequential", "sequential_unrolled", "expand_dims", "broadcast_all", '
        '"legacy_vectorized"',
        False,
        (
            Fact(
                "ValueError: vmap_method must be on of the allowed methods ['sequential', "
                "'sequential_unrolled', 'expand_dims', 'broadcast_all', 'legacy_vectorized', "
                "None] (seen on 0.10.2 and 0.12.0.1, eagerly and under jit)",
                "jax/_src/callback.py `pure_callback`, measured by the jaxcb project",
                "https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html",
            ),
        ),
        "only a vmap_method written as a string literal",
    ),
)
RULE = {r.id: r for r in RULES}

HCB = "jax.experimental.host_callback"
HCB_RULES = {"id_tap": "JXC001", "id_print": "JXC002", "call": "JXC003", "barrier_wait": "JXC004"}
EXPORT = "jax.experimental.export"
PURE_CALLBACK = frozenset({"jax.pure_callback"})
FFI_CALL = frozenset({"jax.ffi.ffi_call", "jax.extend.ffi.ffi_call"})
EXTEND_FFI = "jax.extend.ffi"
VMAP_METHODS = (
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
)
IO_CALLBACK = frozenset({"jax.experimental.io_callback"})
DEBUG_PRINT = "jax.debug.print"
VMAP = "jax.vmap"
WRAPPERS = frozenset({"functools.partial", "jax.jit"})  # f(fun, ...) that still runs fun
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
NOQA = re.compile(r"#\s*noqa\s*:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)", re.I)

Function: TypeAlias = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
Located: TypeAlias = ast.expr | ast.stmt | ast.alias | ast.keyword


@dataclasses.dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int  # 1-based, in characters (as ruff counts)
    rule: str
    message: str
    replacement: str

    def text(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.rule} {self.message} (use: {self.replacement})"

    def as_dict(self) -> dict[str, object]:
        return {**dataclasses.asdict(self), "heuristic": RULE[self.rule].heuristic}


@dataclasses.dataclass(frozen=True)
class Unchecked:
    """A path that could not be checked, and why (``text``: the whole message)."""

    path: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.text}


@dataclasses.dataclass
class Report:
    findings: list[Finding] = dataclasses.field(default_factory=list)
    unchecked: list[Unchecked] = dataclasses.field(default_factory=list)
    files_read: int = 0

    @property
    def errors(self) -> list[str]:
        """One message per path that could not be checked."""
        return [u.text for u in self.unchecked]

    def fail(self, path: str, text: str) -> None:
        self.unchecked.append(Unchecked(path, text))

    @property
    def status(self) -> int:
        """2 if any path went unchecked, else 1 if anything was found, else 0."""
        if self.unchecked or not self.files_read:
            return 2
        return 1 if self.findings else 0

    def as_dict(self) -> dict[str, object]:
        return {
            "findings": [f.as_dict() for f in self.findings],
            "errors": [u.as_dict() for u in self.unchecked],
            "files_checked": self.files_read,
        }


# ---------------------------------------------------------------------------- configuration


@dataclasses.dataclass(frozen=True)
class Config:
    """Which rules run: ``select`` (None: all) minus ``ignore``; each entry a rule id or a
    prefix of rule ids (``"JXC00"``)."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    source: str = "defaults"  # where it was read, for messages

    def __post_init__(self) -> None:
        for key, values in (("select", self.select or ()), ("ignore", self.ignore)):
            for v in values:
                if not any(r.id.startswith(str(v).upper()) for r in RULES):
                    raise ValueError(
                        f"{self.source}: {key}: unknown rule {v!r} (rules: {RULES[0].id} to "
                        f"{RULES[-1].id})"
                    )

    def enabled(self, rule_id: str) -> bool:
        def hit(entries: Iterable[str]) -> bool:
            return any(rule_id.startswith(e.upper()) for e in entries)

        return (self.select is None or hit(self.select)) and not hit(self.ignore)


def load_config(start: str | os.PathLike[str] = ".") -> Config:
    """The ``[tool.jaxcb-check]`` table of the nearest ``pyproject.toml`` at or above
    ``start``; the defaults (every rule) when there is none. Raises ValueError for a file
    that is not valid TOML, an unknown key, or an unknown rule."""
    here = os.path.abspath(start)
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if os.path.isfile(candidate):
            break
        parent = os.path.dirname(here)
        if parent == here:
            return Config()
        here = parent
    try:
        with open(candidate, "rb") as fh:
            table = tomllib.load(fh).get("tool", {}).get("jaxcb-check")
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{candidate}: cannot read it: {e}") from None
    if table is None:
        return Config()
    where = f"{candidate} [tool.jaxcb-check]"
    unknown = sorted(set(table) - {"select", "ignore"})
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: select, ignore)")
    for key in ("select", "ignore"):
        if key in table and not (
            isinstance(table[key], list) and all(isinstance(v, str) for v in table[key])
        ):
            raise ValueError(f"{where}: {key} must be a list of rule ids")
    select = table.get("select")
    return Config(
        select=None if select is None else tuple(select),
        ignore=tuple(table.get("ignore", ())),
        source=where,
    )


# ---------------------------------------------------------------------------- scopes


class _Scope:
    """The names one module, class or function body binds: imports and functions."""

    def __init__(self, node: ast.AST, parent: _Scope | None) -> None:
        self.node, self.parent = node, parent
        self.imports: dict[str, str] = {}
        self.defs: dict[str, Function] = {}
        self.calls: dict[str, ast.Call] = {}  # name = f(...): functools.partial aliases
        body = (
            node.body
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            else []
        )
        for stmt in _own_statements(body):
            if isinstance(stmt, ast.Import):
                for a in stmt.names:
                    if a.asname:
                        self.imports[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        self.imports[top] = top
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                for a in stmt.names:
                    if a.name != "*":
                        self.imports[a.asname or a.name] = f"{stmt.module}.{a.name}"
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self.defs[stmt.name] = stmt
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                if isinstance(stmt.value, ast.Lambda):  # f = lambda ...: a function
                    self.defs[stmt.targets[0].id] = stmt.value
                elif isinstance(stmt.value, ast.Call):  # f = functools.partial(...)
                    self.calls[stmt.targets[0].id] = stmt.value

    def bound_call(self, name: str) -> ast.Call | None:
        """The call a name was assigned from (``log = functools.partial(...)``), if any."""
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.defs or name in scope.imports:
                return None
            if name in scope.calls:
                return scope.calls[name]
            scope = scope.parent
        return None

    def lookup(self, name: str) -> str | Function | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.defs:
                return scope.defs[name]
            if name in scope.imports:
                return scope.imports[name]
            scope = scope.parent
        return None


def _own_statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a body, into if/try/with/for blocks but not into defs or classes."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _own_statements(getattr(stmt, field, []))
        for handler in getattr(stmt, "handlers", []):
            yield from _own_statements(handler.body)
        for case in getattr(stmt, "cases", []):
            yield from _own_statements(case.body)


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        (isinstance(t, ast.Name) and t.id in IMPORT_ERRORS)
        or (isinstance(t, ast.Attribute) and t.attr in IMPORT_ERRORS)
        for t in types
    )


# ---------------------------------------------------------------------------- the checker


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """The child nodes ``ast.NodeVisitor.generic_visit`` would visit, in its order."""
    for _, value in ast.iter_fields(node):
        if isinstance(value, list):
            yield from (item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            yield value


class _Checker:
    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.lines = re.split(r"\r\n|\r|\n", source)  # as the parser counts lines
        self.found: dict[tuple[int, int, str], Finding] = {}
        self.scope: _Scope | None = None
        self.functions: list[Function] = []  # the enclosing functions, innermost last
        self.guarded = 0  # > 0 inside a try that catches ImportError, or its handler
        # for JXC012, decided after the walk
        self.vmapped: dict[int, tuple[str, int]] = {}  # id(function) -> (vmapped name, line)
        self.refs: list[tuple[tuple[int, ...], Function]] = []  # enclosing ids -> function named
        self.ordered_io: list[tuple[ast.Call, tuple[int, ...]]] = []
        self.no_vmap_method: list[tuple[ast.Call, str, tuple[int, ...]]] = []  # JXC007

    # -- the walk

    def walk(self, tree: ast.AST) -> None:
        """Visit every node in the order a recursive ``ast.NodeVisitor`` would, with an
        explicit stack: a visitor yields each child it wants visited, and the walk visits it
        whole before resuming the parent. However deep the tree (a 500-term expression), no
        Python recursion limit is reached."""
        stack: list[Iterator[ast.AST]] = [self._visit(tree)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            else:
                stack.append(self._visit(child))

    def _visit(self, node: ast.AST) -> Iterator[ast.AST]:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            return _children(node)
        out = method(node)
        return iter(()) if out is None else out

    # -- reporting

    def report(
        self, node: Located, rule_id: str, message: str | None = None, use: str | None = None
    ) -> None:
        line, col = node.lineno, node.col_offset
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        # ast counts columns in UTF-8 bytes; report characters, 1-based, as ruff does
        char_col = len(text.encode("utf-8")[:col].decode("utf-8", errors="replace")) + 1
        rule = RULE[rule_id]
        f = Finding(
            self.path, line, char_col, rule_id, message or rule.message, use or rule.replacement
        )
        self.found.setdefault((line, char_col, rule_id), f)

    # -- names

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name an expression refers to through the imports, or None."""
        if isinstance(node, ast.Name) and self.scope is not None:
            hit = self.scope.lookup(node.id)
            return hit if isinstance(hit, str) else None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def function_of(self, node: ast.AST | None) -> Function | None:
        """The function of this module an argument stands for (a name, lambda, partial, jit)."""
        if isinstance(node, ast.Lambda):
            return node
        if isinstance(node, ast.Name) and self.scope is not None:
            hit = self.scope.lookup(node.id)
            return None if isinstance(hit, str) else hit
        if isinstance(node, ast.Call) and node.args and self.resolve(node.func) in WRAPPERS:
            return self.function_of(node.args[0])
        return None

    # -- scopes and guards

    def visit_Module(self, node: ast.Module) -> Iterator[ast.AST]:
        self.scope = _Scope(node, None)
        yield from _children(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> Iterator[ast.AST]:
        yield from (*node.decorator_list, *node.bases, *node.keywords)
        outer, self.scope = self.scope, _Scope(node, self.scope)
        yield from node.body
        self.scope = outer

    def _function(self, node: Function) -> Iterator[ast.AST]:
        outer = self.scope
        self.scope = _Scope(node, outer)
        self.functions.append(node)
        if isinstance(node, ast.Lambda):
            yield node.body
        else:
            yield from node.body
        self.functions.pop()
        self.scope = outer

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
        for d in node.decorator_list:
            yield d
            if self._is_vmap_decorator(d):
                self.vmapped.setdefault(id(node), (node.name, node.lineno))
        yield node.args
        if node.returns:
            yield node.returns
        yield from self._function(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> Iterator[ast.AST]:
        yield node.args
        yield from self._function(node)

    def _is_vmap_decorator(self, d: ast.expr) -> bool:
        if self.resolve(d) == VMAP:
            return True
        if isinstance(d, ast.Call):
            head = self.resolve(d.func)
            if head == VMAP:  # @jax.vmap(...) is not valid, but @partial(jax.vmap, ...) is
                return False
            return head == "functools.partial" and bool(d.args) and self.resolve(d.args[0]) == VMAP
        return False

    def visit_Try(self, node: ast.Try) -> Iterator[ast.AST]:
        yield from self._try(node)

    def visit_TryStar(self, node: ast.TryStar) -> Iterator[ast.AST]:
        yield from self._try(node)

    def _try(self, node: ast.Try | ast.TryStar) -> Iterator[ast.AST]:
        guard = any(_catches_import_error(h) for h in node.handlers)
        self.guarded += guard
        for stmt in node.body:
            yield stmt
        for h in node.handlers:
            inner = _catches_import_error(h)
            self.guarded += inner
            yield h
            self.guarded -= inner
        self.guarded -= guard
        for stmt in (*node.orelse, *node.finalbody):
            yield stmt

    # -- imports: JXC005, JXC008

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._imported(a, a.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        for a in node.names:
            self._imported(a, node.module if a.name == "*" else f"{node.module}.{a.name}")

    def _imported(self, alias: ast.alias, name: str) -> None:
        if self.guarded:
            return
        if name == HCB or name.startswith(HCB + "."):
            self.report(alias, "JXC005")
        elif name == EXPORT or name.startswith(EXPORT + "."):
            self.report(alias, "JXC008")
        elif name == EXTEND_FFI or name.startswith(EXTEND_FFI + "."):
            self.report(alias, "JXC013")

    # -- references: JXC001–JXC005

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._host_callback_use(node)
            target = self.function_of(node)
            if target is not None:
                self.refs.append((tuple(id(f) for f in self.functions), target))

    def visit_Attribute(self, node: ast.Attribute) -> Iterator[ast.AST]:
        if isinstance(node.ctx, ast.Load):
            self._host_callback_use(node)
            if not self.guarded and self.resolve(node) == EXTEND_FFI:  # jax.extend.ffi, spelled out
                self.report(node, "JXC013")
        yield from _children(node)

    def _host_callback_use(self, node: ast.Name | ast.Attribute) -> None:
        name = self.resolve(node)
        if not name or not name.startswith(HCB + ".") or "." in name[len(HCB) + 1 :]:
            return
        attr = name[len(HCB) + 1 :]
        if attr in HCB_RULES:
            self.report(node, HCB_RULES[attr])
        else:
            self.report(node, "JXC005", f"jax.experimental.host_callback.{attr} no longer exists")

    # -- calls: JXC006, JXC007, JXC009–JXC012

    def partial_of(self, node: ast.AST) -> tuple[str | None, dict[str, ast.keyword]] | None:
        """``(target, keywords)`` when ``node`` is ``functools.partial(target, ...)`` or a name
        assigned from one in an enclosing scope; otherwise None."""
        if isinstance(node, ast.Name) and self.scope is not None:
            bound = self.scope.bound_call(node.id)
            if bound is None:
                return None
            node = bound
        if (
            isinstance(node, ast.Call)
            and node.args
            and self.resolve(node.func) == "functools.partial"
        ):
            return self.resolve(node.args[0]), {k.arg: k for k in node.keywords if k.arg}
        return None

    def visit_Call(self, node: ast.Call) -> Iterator[ast.AST]:
        name = self.resolve(node.func)
        kw = {k.arg: k for k in node.keywords if k.arg}
        partial = self.partial_of(node.func) if name is None else None
        if partial is not None and partial[0] in IO_CALLBACK:  # partial(io_callback, ...)(...)
            name, kw = partial[0], {**partial[1], **kw}
        if name in PURE_CALLBACK or name in FFI_CALL:
            api = "pure_callback" if name in PURE_CALLBACK else "ffi_call"
            method = kw.get("vmap_method")
            if (
                method is not None
                and isinstance(method.value, ast.Constant)
                and isinstance(method.value.value, str)
                and method.value.value not in VMAP_METHODS
            ):
                self.report(
                    method,
                    "JXC015",
                    f"vmap_method={method.value.value!r} is not one of the values JAX accepts: "
                    "the call raises ValueError",
                )
            if name in FFI_CALL and len(node.args) > 2:
                self.report(node, "JXC014")
            if "vectorized" in kw:
                self._vectorized(kw["vectorized"], api)
            elif "vmap_method" not in kw and all(k.arg for k in node.keywords):
                self.no_vmap_method.append((node, api, tuple(id(f) for f in self.functions)))
            if name in PURE_CALLBACK:
                callback = node.args[0] if node.args else getattr(kw.get("callback"), "value", None)
                fn = self.function_of(callback)
                if fn is not None:
                    self._raises_in(fn, node)
        elif name == DEBUG_PRINT:
            fmt = node.args[0] if node.args else getattr(kw.get("fmt"), "value", None)
            how = _formatted_in_python(fmt)
            if fmt is not None and how is not None:
                self.report(
                    fmt,
                    "JXC009",
                    f"{how} in jax.debug.print: it is formatted once, at trace time, with tracers",
                )
        elif name in IO_CALLBACK:
            ordered = kw.get("ordered")
            if (
                ordered is not None
                and isinstance(ordered.value, ast.Constant)
                and ordered.value.value is True
            ):
                self.ordered_io.append((node, tuple(id(f) for f in self.functions)))
        elif name == VMAP:
            fun = node.args[0] if node.args else getattr(kw.get("fun"), "value", None)
            fn = self.function_of(fun)
            if fn is not None:
                label = fn.name if not isinstance(fn, ast.Lambda) else "a lambda"
                self.vmapped.setdefault(id(fn), (label, node.lineno))
        yield from _children(node)

    def _vectorized(self, kw: ast.keyword, api: str) -> None:
        value = kw.value.value if isinstance(kw.value, ast.Constant) else None
        use = None  # the rule's replacement, naming both cases
        if value is True:
            use = 'vmap_method="expand_dims" if fn broadcasts, "broadcast_all" if it needs equal shapes'
        elif value is False:
            use = 'vmap_method="sequential"'
        self.report(kw, "JXC006", f"{api}(vectorized=...) was removed from JAX", use)

    def _raises_in(self, fn: Function, call: ast.Call) -> None:
        if isinstance(fn, ast.Lambda):  # a lambda holds no statements: follow the one it calls
            inner = self.function_of(fn.body.func) if isinstance(fn.body, ast.Call) else None
            if inner is None or isinstance(inner, ast.Lambda):
                return
            fn = inner
        where = f"{fn.name}, which is passed to pure_callback on line {call.lineno}"
        for stmt in _own_statements(fn.body):
            if isinstance(stmt, ast.Raise):
                self.report(stmt, "JXC010", f"raise in {where}: the behaviour is undefined")
            elif isinstance(stmt, ast.Assert):
                self.report(
                    stmt, "JXC011", f"assert in {where}: if it fails, the behaviour is undefined"
                )

    # -- after the walk: JXC012

    def finish(self) -> list[Finding]:
        region = dict(self.vmapped)  # functions that run under vmap -> why
        changed = True
        while changed:
            changed = False
            for enclosing, target in self.refs:
                hit = next((region[e] for e in enclosing if e in region), None)
                if hit is not None and id(target) not in region:
                    region[id(target)] = hit
                    changed = True

        def under_vmap(enclosing: tuple[int, ...]) -> str | None:
            why = next((region[e] for e in reversed(enclosing) if e in region), None)
            return None if why is None else f"under jax.vmap ({why[0]}, vmapped on line {why[1]})"

        for call, api, enclosing in self.no_vmap_method:
            where = under_vmap(enclosing)
            if where:
                message = f"{api} without vmap_method {where}: that raises NotImplementedError"
            else:
                message = (
                    f"{api} without vmap_method: if jax.vmap batches its operands, it raises "
                    "NotImplementedError"
                )
            self.report(call, "JXC007", message)
        for call, enclosing in self.ordered_io:
            where = under_vmap(enclosing)
            if where:
                self.report(call, "JXC012", f"io_callback(ordered=True) {where} raises ValueError")
        return sorted(self.found.values())


def _is_text(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(
        node, ast.JoinedStr
    )


def _formatted_in_python(fmt: ast.AST | None) -> str | None:
    """How a ``jax.debug.print`` format string is filled in by Python before JAX sees it:
    ``"f-string"``, ``"str.format"``, ``"%-formatting"``, ``"string concatenation"``; None
    when it is not (a plain literal, or an f-string that only adds static text around an
    escaped ``{{placeholder}}`` JAX fills)."""
    if isinstance(fmt, ast.JoinedStr):
        if not any(isinstance(v, ast.FormattedValue) for v in fmt.values):
            return None
        text = "".join(
            v.value for v in fmt.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
        return None if "{" in text else "f-string"  # an escaped {{x}}: JAX's placeholder
    if (
        isinstance(fmt, ast.Call)
        and isinstance(fmt.func, ast.Attribute)
        and fmt.func.attr == "format"
        and _is_text(fmt.func.value)
    ):
        return "str.format"
    if isinstance(fmt, ast.BinOp) and isinstance(fmt.op, ast.Mod) and _is_text(fmt.left):
        return "%-formatting"
    if isinstance(fmt, ast.BinOp) and isinstance(fmt.op, ast.Add):
        parts: list[ast.expr] = []
        stack: list[ast.expr] = [fmt]
        while stack:  # a + b + c: the operands of the whole chain
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack += [n.right, n.left]
            else:
                parts.append(n)
        if any(_is_text(x) for x in parts) and not all(isinstance(x, ast.Constant) for x in parts):
            return "string concatenation"
    return None


def _noqa(source: str) -> dict[int, set[str]]:
    """Line -> the rule ids a ``# noqa: ...`` comment on it names."""
    out: dict[int, set[str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                m = NOQA.search(tok.string)
                if m:
                    out.setdefault(tok.start[0], set()).update(
                        c.strip().upper() for c in m.group(1).split(",")
                    )
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def check_source(
    source: str, path: str = "<string>", config: Config | None = None
) -> list[Finding]:
    """The findings in one module's source text, of the rules ``config`` enables (default
    all). Raises SyntaxError if it does not parse."""
    tree = ast.parse(source, filename=path)
    checker = _Checker(path, source)
    checker.walk(tree)
    findings = checker.finish()
    quiet = _noqa(source) if "noqa" in source else {}
    config = config or Config()
    return [f for f in findings if f.rule not in quiet.get(f.line, ()) and config.enabled(f.rule)]


# ---------------------------------------------------------------------------- files


def _python_files(root: str, report: Report) -> list[str]:
    found: list[str] = []

    def onerror(e: OSError) -> None:
        report.fail(str(e.filename), f"{e.filename}: cannot read directory: {e.strerror or e}")

    for here, dirs, files in os.walk(root, onerror=onerror):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found += (os.path.join(here, f) for f in sorted(files) if f.endswith(".py"))
    return found


def _read(path: str) -> tuple[str | None, str | None]:
    """(source, None) or (None, why it cannot be checked)."""
    if os.path.islink(path) and not os.path.exists(path):
        return None, "broken symbolic link"
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None, "not a regular file"  # a FIFO or a device would block or never end
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        return None, f"cannot read: {e.strerror or e}"
    if b"\0" in data:
        return None, "binary file, not Python source"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), None
    except (SyntaxError, UnicodeDecodeError, LookupError) as e:
        return None, f"cannot decode as Python source: {e}"


def check_paths(paths: Sequence[str], config: Config | None = None) -> Report:
    """Check files and directories (walked for ``*.py``). Never raises for a bad path: it is
    listed in ``report.unchecked`` and makes the status 2."""
    report = Report()
    for given in paths:
        files = [given]
        if os.path.isdir(given):
            files = _python_files(given, report)
            if not files:
                report.fail(given, f"{given}: no Python files in this directory")
        for path in files:
            source, why = _read(path)
            if source is None:
                report.fail(path, f"{path}: {why}; not checked")
                continue
            try:
                report.findings += check_source(source, path, config)
            except SyntaxError as e:
                where = f"{path}:{e.lineno}:{e.offset}" if e.lineno else path
                report.fail(path, f"{where}: syntax error: {e.msg}; not checked")
                continue
            except (ValueError, RecursionError, MemoryError) as e:
                report.fail(path, f"{path}: cannot parse: {e}; not checked")
                continue
            report.files_read += 1
    return report


# ---------------------------------------------------------------------------- command line

EXAMPLE = """\
example:
  jaxcb check src/ tests/                 every *.py below them
  jaxcb check --format json a.py          findings, unchecked paths and a count, as JSON
  jaxcb check --ignore JXC007,JXC009 src/ every rule but these two

exit status: 0 nothing found, 1 findings, 2 a path could not be checked (or a bad option).
A finding is silenced by `# noqa: JXC007` (its rule id) on its line; `--select` and
`--ignore` also come from [tool.jaxcb-check] in the nearest pyproject.toml."""


def _rule_list(text: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in text.split(",") if v.strip())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or directories")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    parser.add_argument(
        "--select",
        type=_rule_list,
        metavar="RULES",
        help="only these rules, comma-separated ids or prefixes (default: all)",
    )
    parser.add_argument(
        "--ignore", type=_rule_list, metavar="RULES", help="skip these rules (ids or prefixes)"
    )


def run(
    paths: Sequence[str],
    fmt: str = "text",
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    prog: str = "jaxcb check",
) -> int:
    try:
        config = load_config()
        if select is not None or ignore is not None:
            config = Config(
                select=tuple(select) if select is not None else config.select,
                ignore=tuple(ignore) if ignore is not None else config.ignore,
                source="--select/--ignore",
            )
    except ValueError as bad:
        print(f"{prog}: {bad}", file=sys.stderr)
        return 2
    report = check_paths(paths, config)
    for e in report.errors:
        print(f"{prog}: {e}", file=sys.stderr)
    if fmt == "json":
        print(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        for f in report.findings:
            print(f.text())
    n, m = len(report.findings), report.files_read
    if n:
        print(f"{prog}: {n} finding{'s' * (n != 1)} in {m} file{'s' * (m != 1)}", file=sys.stderr)
    if not report.files_read:
        print(f"{prog}: no file could be read", file=sys.stderr)
    elif report.unchecked:
        k = len(report.unchecked)
        print(f"{prog}: {k} path{'s' * (k != 1)} not checked", file=sys.stderr)
    return report.status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="jaxcb-check",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=EXAMPLE.replace("jaxcb check", "jaxcb-check"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.paths, args.format, args.select, args.ignore, prog="jaxcb-check")


if __name__ == "__main__":
    sys.exit(main())
