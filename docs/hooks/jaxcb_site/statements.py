"""Sentences about behaviour outside the pages, held to the data when the site is built.

A page states a behaviour next to an ``expect`` directive (:mod:`.claims`). The same kind
of sentence also reaches readers from places a directive cannot go: the docstrings the API
pages render, the package READMEs, the code notes the site adds beside ``io_callback(``
and ``jax.debug.callback(`` (:mod:`.annotations`) and the row descriptions of the
registries. Each such sentence is listed in ``STATEMENTS`` with the cells that show it,
written as an ``expect`` directive's arguments (``SUBJECT COMPUTATION TRANSFORM
FIELD=VALUE ...``, or ``observation GROUP ID FIELD=VALUE ...``).

:func:`check` fails the build when

- a listed sentence is no longer in its file (the table is stale),
- a cited cell no longer shows what the sentence says (the sentence is false), or
- a contract bullet about when and how often a callback runs (its bold title names
  running, steps, removal, order or effects) in a module of an effect package has no
  listed sentence (a new claim nobody checks), or
- a docstring sentence there promises a run count outright ("every time", "exactly once",
  "guaranteed", ...) and is not listed.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

from . import claims
from .data import ROOT

__all__ = ["STATEMENTS", "Statement", "check", "uncited_absolutes", "uncited_bullets"]


@dataclasses.dataclass(frozen=True)
class Statement:
    """``quote`` (whitespace-insensitive) is in ``path``; every one of ``cites`` holds."""

    path: str
    quote: str
    cites: tuple[str, ...]


def S(path: str, quote: str, *cites: str) -> Statement:
    return Statement(path, quote, cites)


IO = "packages/jaxcb-io/src/jaxcb_io/"
DEBUG = "packages/jaxcb-debug/src/jaxcb_debug/"
PURE_IO = ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")

# The effect packages: every bullet of theirs about when a callback runs is listed below.
COVERED = (IO, DEBUG)
RUN_TITLE = re.compile(r"run|step|remov|effect|advanc|order", re.IGNORECASE)
# Words that promise a run count outright: a docstring sentence with one must be listed.
ABSOLUTE = re.compile(
    r"every time|never removed|guaranteed|exactly once|always runs?\b|must run", re.IGNORECASE
)

_NOT_REMOVED = "Under `jax.jit` the host runs once per call even when the result is unused"
_LOOP = (
    "inside a `lax.scan` or `lax.fori_loop` that `grad` differentiates, JAX may run it "
    "fewer times than the loop has steps (once for 3 steps when its arguments are loop "
    "constants)"
)
_ORDER_IO = "`ordered=True` cannot be batched: `vmap` raises"
_WHEN_DEBUG = (
    "Once per call, also when the result is unused under `jax.jit`; once per batch element "
    "under `vmap`; once under `grad` and `jvp`, with the forward (primal) values only. Not "
    "once per execution in every program: under `jax.checkpoint` the host sees the forward "
    "pass twice, under `vmap` of a `lax.cond` both branches run, and inside a loop that "
    "`grad` differentiates it may run fewer times than the loop has steps."
)


def _io_pure(name: str) -> list[Statement]:
    path = IO + name + ".py"
    order = (
        "`ordered=True` serialises host calls" if name in ("sin_scale", "sum_mean") else _ORDER_IO
    )
    return [
        S(
            path,
            _NOT_REMOVED,
            f"io_callback {name} jit_unused status=ok host_calls=1",
            f"io_callback/unordered {name} vmap status=ok host_calls=4",
        ),
        S(
            path,
            _LOOP,
            f"io_callback {name} grad_scan_const host_calls=1 effects.verdict=missing",
            f"io_callback {name} grad_fori_const host_calls=1 effects.verdict=missing",
        ),
        S(path, order, f"io_callback/ordered {name} vmap status=error error_type=ValueError"),
    ]


# The transforms a "works under every transform" sentence of jaxcb_native is checked on.
NATIVE_TRANSFORMS = (
    "eager", "jit", "vmap", "jit_vmap", "pmap", "shard_map", "sharded_jit", "grad", "jvp",
    "vjp", "jacfwd", "jacrev", "hessian", "vmap_grad", "checkpoint_grad", "linearize",
    "linear_transpose", "scan", "while_loop", "fori_loop", "cond", "vmap_cond", "export",
)  # fmt: skip
NATIVE = "packages/jaxcb-native/src/jaxcb_native/"
# bessel_jv's derivative rule calls the function again: host calls counted without jit.
_BESSEL_CALLS = (
    "Called without `jax.jit`, a first derivative (`grad`, `jvp`, `vjp`, `jacfwd`, `jacrev`) "
    "is 3 {calls} and `hessian` 9 (the support matrix, JAX 0.10.2 and 0.12.0.1)."
)


def _bessel_calls(variant: str) -> tuple[str, ...]:
    return (
        *(
            f"{variant} bessel_jv {t} status=ok host_calls=3"
            for t in ("grad", "jvp", "vjp", "jacfwd", "jacrev")
        ),
        f"{variant} bessel_jv hessian status=ok host_calls=9",
    )


def _native() -> list[Statement]:
    """jaxcb_native: every transform works, but shard_map of expm on JAX 0.4.30."""
    newer = tuple(
        f"native/jax {name} {t} status=ok jax=0.12.0.1|0.10.2"
        for name in PURE_IO
        for t in NATIVE_TRANSFORMS
    )
    broken = "native/jax expm shard_map status=error error_type=NotImplementedError jax=0.4.30"
    return [
        S(
            NATIVE + "expm.py",
            "every transform of the support matrix works on JAX 0.10.2 and 0.12.0.1. On JAX "
            '0.4.30 `shard_map` of it raises `NotImplementedError` ("No replication rule for '
            'cond")',
            *(c for c in newer if " expm " in c),
            broken,
        ),
        S(
            NATIVE + "__init__.py",
            "every transform of the support matrix works on JAX 0.10.2 and 0.12.0.1; on JAX "
            '0.4.30 one cell fails, `shard_map` of `expm` (`NotImplementedError`: "No '
            'replication rule for cond").',
            *newer,
            broken,
        ),
    ]


def _debug_observers() -> list[Statement]:
    """The five observers share one module and one contract: each sentence cites all five."""
    path = DEBUG + "observers.py"
    return [
        S(
            path,
            _WHEN_DEBUG,
            *(
                f"debug.callback {name} {cell}"
                for name in PURE_IO
                for cell in (
                    "jit_unused status=ok host_calls=1",
                    "vmap status=ok host_calls=4",
                    "grad status=ok host_calls=1",
                    "jvp status=ok host_calls=1",
                    "checkpoint_grad host_calls=2 effects.verdict=duplicated",
                    "vmap_cond host_calls=4 effects.verdict=duplicated",
                    "grad_scan_const host_calls=1 effects.verdict=missing",
                )
            ),
        ),
        S(
            path,
            "`ordered=True` keeps program order",
            *(f"debug.callback/ordered {name} scan status=ok host_calls=3" for name in PURE_IO),
        ),
    ]


STATEMENTS: tuple[Statement, ...] = (
    *(s for name in PURE_IO for s in _io_pure(name)),
    *_debug_observers(),
    # --- jaxcb_io: the package, its effects, its README, its code note, its rows ------------
    S(
        IO + "__init__.py",
        "An io_callback is not removed when its result is unused under `jax.jit`",
        "io_callback * jit_unused status=ok effects.verdict=exact",
    ),
    S(
        IO + "__init__.py",
        "inside a loop that `grad` differentiates JAX may run it fewer times than the loop has steps",
        "io_callback sin_scale grad_scan_const effects.verdict=missing",
        "io_callback log_steps grad_scan_args effects.verdict=none",
    ),
    S(
        IO + "log_steps.py",
        "The log is written even when the result is unused under `jax.jit`. With the default "
        "`ordered=True` the steps arrive in program order. With `ordered=False` every step "
        "still arrives once",
        "io_callback log_steps jit_unused effects.verdict=exact",
        "io_callback log_steps scan effects.verdict=exact",
    ),
    S(
        IO + "log_steps.py",
        "Called on every step of a `lax.scan` or `lax.fori_loop` that `grad` differentiates, "
        "the log can stay empty: no step arrives.",
        "io_callback log_steps grad_scan_args effects.verdict=none host_calls=0",
        "io_callback log_steps grad_fori_args effects.verdict=none host_calls=0",
    ),
    S(
        IO + "log_steps.py",
        "`jaxcb_debug.log_steps` can be differentiated, and logs the forward pass on JAX "
        "0.10.2 and later.",
        "debug.callback log_steps grad status=ok effects.verdict=exact jax=0.12.0.1|0.10.2",
        "debug.callback log_steps grad_scan_args effects.verdict=exact jax=0.12.0.1|0.10.2",
    ),
    S(
        IO + "progress.py",
        "The reports arrive even when the result is unused under `jax.jit`; with the default "
        "`ordered=True` in program order, with `ordered=False` once each",
        "io_callback progress jit_unused effects.verdict=exact",
        "io_callback progress scan effects.verdict=exact",
    ),
    S(
        IO + "progress.py",
        "Called on every step of a `lax.scan` or `lax.fori_loop` that `grad` differentiates, "
        "the reports can all be lost",
        "io_callback progress grad_scan_args effects.verdict=none host_calls=0",
    ),
    S(
        IO + "host_draw.py",
        "`io_callback` is not removed when its result is unused.",
        "io_callback host_draw jit_unused effects.verdict=exact host_calls=1",
    ),
    S(
        IO + "host_draw.py",
        "One host call per call, even when the result is unused under `jax.jit`, so two calls "
        "return the next two draws. Not in a differentiated loop: there JAX draws once for all "
        "the steps.",
        "io_callback host_draw jit_unused effects.verdict=exact host_calls=1",
        "io_callback host_draw grad_scan_args effects.verdict=missing host_calls=1",
        "io_callback host_draw grad_fori_args effects.verdict=missing host_calls=1",
    ),
    S(
        IO + "host_draw.py",
        "several draws in one program are taken in program order",
        "io_callback/ordered host_draw scan effects.verdict=exact",
    ),
    S(
        "packages/jaxcb-io/README.md",
        "An io_callback is not removed when its result is unused: under `jax.jit` the host "
        "function runs once per call either way.",
        "io_callback sin_scale jit_unused status=ok host_calls=1",
        "io_callback * jit_unused status=ok effects.verdict=exact",
    ),
    S(
        "packages/jaxcb-io/README.md",
        "inside a `lax.scan` or `lax.fori_loop` that `grad` differentiates JAX may run it "
        "fewer times than the loop has steps, or not at all.",
        "io_callback sin_scale grad_scan_const effects.verdict=missing",
        "io_callback log_steps grad_scan_args effects.verdict=none",
    ),
    S(
        "docs/hooks/jaxcb_site/annotations.py",
        "Not removed when the result is unused: under `jit` one host call per call. Inside "
        "a loop that `grad` differentiates it may run fewer times than the loop has steps. "
        "`ordered=True` also keeps program order, and then `vmap` raises.",
        "io_callback sin_scale jit_unused status=ok host_calls=1",
        "io_callback * jit_unused status=ok effects.verdict=exact",
        "io_callback sin_scale grad_scan_const effects.verdict=missing",
        "io_callback/ordered * vmap status=error",
    ),
    S(
        "packages/jaxcb-io/src/jaxcb_io/_registry.py",
        "io_callback(ordered=False): kept when its result is unused; no order promised.",
        "io_callback/unordered * jit_unused status=ok effects.verdict=exact",
    ),
    S(
        "packages/jaxcb-io/src/jaxcb_io/_registry.py",
        "io_callback(ordered=True): host calls keep program order; vmap raises.",
        "io_callback/ordered * vmap status=error",
    ),
    # --- jaxcb_native, and bessel_jv's derivative rule in the callback packages ----------
    *_native(),
    S(
        "packages/jaxcb-pure/src/jaxcb_pure/bessel_jv.py",
        "under `jax.jit` a call whose result is unused is removed. Two identical calls in one "
        "jitted program both ran on every JAX version measured, which JAX does not promise.",
        "pure_callback/default bessel_jv jit_unused host_calls=0",
        "observation gotcha merged host_calls=2",
    ),
    S(
        "packages/jaxcb-pure/src/jaxcb_pure/bessel_jv.py",
        "Called without `jax.jit`, the function is 1 host call, a first derivative (`grad`, "
        "`jvp`, `vjp`, `jacfwd`, `jacrev`) 3 (`J_v`, `J_{v-1}`, `J_{v+1}`) and `hessian` 9 "
        "(the support matrix, JAX 0.10.2 and 0.12.0.1).",
        "pure_callback/default bessel_jv eager status=ok host_calls=1",
        *_bessel_calls("pure_callback/default"),
    ),
    S(
        "packages/jaxcb-buffer/src/jaxcb_buffer/bessel_jv.py",
        _BESSEL_CALLS.format(calls="host calls"),
        *_bessel_calls("buffer_callback/default"),
    ),
    S(
        "packages/jaxcb-ffi/src/jaxcb_ffi/bessel_jv.py",
        _BESSEL_CALLS.format(calls="handler calls"),
        *_bessel_calls("ffi_call/default"),
    ),
    S(
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/bessel_jv.py",
        _BESSEL_CALLS.format(calls="handler calls"),
        *_bessel_calls("ffi_python/default"),
    ),
    # --- jaxcb_debug: the loops -------------------------------------------------------------
    S(
        DEBUG + "log_steps.py",
        "With the default `ordered=True` the steps arrive in program order, also when the "
        "result is unused under `jax.jit`. With `ordered=False` every step still arrives "
        "exactly once, in no promised order.",
        "debug.callback log_steps jit_unused effects.verdict=exact",
        "debug.callback log_steps scan effects.verdict=exact",
    ),
    S(
        DEBUG + "log_steps.py",
        "On JAX 0.10.2 and later the log sees the forward pass only (the primal states, once "
        "per step), never tangents or cotangents; on JAX 0.4.30 it sees nothing under `grad`.",
        "debug.callback log_steps grad effects.verdict=exact jax=0.12.0.1|0.10.2",
        "debug.callback log_steps grad effects.verdict=none jax=0.4.30",
    ),
    S(
        DEBUG + "log_steps.py",
        "Under `jax.checkpoint` (remat) on 0.10.2 and later the forward pass runs twice, once "
        "more inside the backward pass to recompute what was not saved, and the log sees every "
        "step twice",
        "debug.callback log_steps checkpoint_grad effects.verdict=duplicated jax=0.12.0.1|0.10.2",
    ),
    S(
        DEBUG + "log_steps.py",
        "Called inside a differentiated loop, steps can be lost.",
        "debug.callback log_steps grad_fori_args effects.verdict=missing|none",
    ),
    S(
        DEBUG + "progress.py",
        "With the default `ordered=True` the reports arrive in program order, also when the "
        "result is unused under `jax.jit`. With `ordered=False` each still arrives exactly once",
        "debug.callback progress jit_unused effects.verdict=exact",
        "debug.callback progress scan effects.verdict=exact",
    ),
    S(
        DEBUG + "progress.py",
        "On JAX 0.10.2 and later the reports see the forward pass only, and under "
        "`jax.checkpoint` every report comes twice; on JAX 0.4.30 no report arrives under "
        "`grad`",
        "debug.callback progress grad effects.verdict=exact jax=0.12.0.1|0.10.2",
        "debug.callback progress checkpoint_grad effects.verdict=duplicated jax=0.12.0.1|0.10.2",
        "debug.callback progress grad effects.verdict=none jax=0.4.30",
    ),
    S(
        DEBUG + "__init__.py",
        "Nothing blocks differentiation: on JAX 0.10.2 and later the host sees the forward "
        "pass only.",
        "debug.callback * grad status=ok effects.verdict=exact jax=0.12.0.1|0.10.2",
    ),
    S(
        "packages/jaxcb-debug/README.md",
        "under `grad` (JAX 0.10.2 and later) the host sees the forward pass only, under `vmap` "
        "once per batch element.",
        "debug.callback * grad status=ok effects.verdict=exact jax=0.12.0.1|0.10.2",
        "debug.callback * vmap status=ok effects.verdict=exact",
    ),
    S(
        "docs/hooks/jaxcb_site/annotations.py",
        "Returns nothing to the computation: the result comes from the native code; the host "
        "only observes. Under `grad` it sees the forward pass.",
        "debug.callback sin_scale grad status=ok host_calls=1",
    ),
)


def _flat(text: str) -> str:
    """Whitespace-insensitive text: a docstring's line breaks and a Python string's
    implicit concatenation (``"..." "..."``) read as one space."""
    text = re.sub(r'"\s*\n\s*"', "", text)
    return re.sub(r"\s+", " ", text)


def _holds(cite: str) -> list[str]:
    """What is wrong with one citation (nothing when its cells show what it says)."""
    words = cite.split()
    try:
        if words[0] == "observation":
            claims.d_expect_observation("statement", *words[1:])
        else:
            claims.d_expect("statement", *words)
    except claims.ClaimError as e:
        return [str(e).replace("statement: ", "", 1)]
    return []


def _bullets(tree: ast.Module) -> list[tuple[str, str]]:
    """``(title, text)`` of each contract bullet (``- **Title.** text``) of a module docstring."""
    doc = ast.get_docstring(tree) or ""
    out = []
    for m in re.finditer(r"^- \*\*(.+?)\*\*(.*?)(?=^- \*\*|\Z)", doc, re.M | re.S):
        out.append((m.group(1), _flat(m.group(1) + m.group(2))))
    return out


def _covered(
    statements: tuple[Statement, ...], root: Path
) -> Iterator[tuple[ast.Module, str, list[str]]]:
    """``(parsed module, its path from the root, the quotes listed for it)`` for every
    module of the effect packages."""
    quotes: dict[str, list[str]] = {}
    for s in statements:
        quotes.setdefault(s.path, []).append(_flat(s.quote))
    for package in COVERED:
        for path in sorted((root / package).glob("*.py")):
            rel = path.relative_to(root).as_posix()
            yield ast.parse(path.read_text(encoding="utf-8")), rel, quotes.get(rel, [])


def uncited_bullets(statements: tuple[Statement, ...] = STATEMENTS, root: Path = ROOT) -> list[str]:
    """Bullets about when a callback runs, in the effect packages, that no statement quotes."""
    return [
        f"{rel}: the bullet {title!r} says how the callback runs and cites nothing"
        for tree, rel, quotes in _covered(statements, root)
        for title, text in _bullets(tree)
        if RUN_TITLE.search(title) and not any(q in text for q in quotes)
    ]


def _docstrings(tree: ast.Module) -> list[str]:
    """The module's docstring and every function's and class's, flattened."""
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    return [_flat(d) for n in nodes if (d := ast.get_docstring(n))]


def uncited_absolutes(
    statements: tuple[Statement, ...] = STATEMENTS, root: Path = ROOT
) -> list[str]:
    """Sentences of the effect packages' docstrings that promise a run count outright
    ("every time", "exactly once", ...) and that no statement quotes."""
    out = []
    for tree, rel, quotes in _covered(statements, root):
        for doc in _docstrings(tree):
            for sentence in re.split(r"(?<=[.:;])\s+", doc):
                m = ABSOLUTE.search(sentence)
                if m and not any(sentence[: m.end()] in q or q in sentence for q in quotes):
                    out.append(f"{rel}: {sentence[:90]!r} promises a run count and cites nothing")
    return out


def check(statements: tuple[Statement, ...] = STATEMENTS, root: Path = ROOT) -> list[str]:
    """Every problem with the listed sentences, as one line each (nothing when all hold)."""
    problems = []
    texts: dict[str, str] = {}
    for s in statements:
        if s.path not in texts:
            path = root / s.path
            texts[s.path] = _flat(path.read_text(encoding="utf-8")) if path.exists() else ""
        if _flat(s.quote) not in texts[s.path]:
            problems.append(f"{s.path} no longer says {s.quote[:70]!r}…: update STATEMENTS")
            continue
        problems += [f"{s.path}: {s.quote[:70]!r}…: {p}" for c in s.cites for p in _holds(c)]
    return problems + uncited_bullets(statements, root) + uncited_absolutes(statements, root)
