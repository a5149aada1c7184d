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
heuristic (it can report correct code or miss a real case), the JAX versions a finding is
about and the JAX facts it rests on (those measured are run again on the installed JAX by
``tests/core/test_check_facts.py``).
A finding is silenced by ``# noqa: JXC00N`` on the line it is reported on, a rule for a
whole run by ``--ignore`` (``--select`` keeps only the rules named), and both can be set in
a ``[tool.jaxcb-check]`` table of the nearest ``pyproject.toml`` above the working
directory (``select = ["JXC001", ...]``, ``ignore = [...]``; a prefix such as ``"JXC00"``
names every rule it starts); a selection that leaves no rule to run is an error.

A version check is not a migration problem: an import or use inside a ``try`` whose handler
catches ``ImportError`` or ``AttributeError`` (or inside that handler), the branch of an
``if`` on JAX's version or on ``hasattr(jax, ...)`` that the newest JAX does not take, a
name imported from a removed module and also assigned the new API, and an old-style
callback call beside a branch (of an ``if`` on a flag, or the ``try`` of its ``except``)
that makes the same call with ``vmap_method``.

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
    versions: str = ""  # the JAX versions a finding is about, as a phrase: "JAX 0.6.0 and later"


EVERY_VERSION = "any JAX version"
MEASURED = "measured by the jaxcb project (tests/core/test_check_facts.py)"
SEEN = "seen on 0.10.2 and 0.12.0.1"  # the JAX versions the measured facts are checked on
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
    Fact(
        f"`import jax.experimental.host_callback` raises ModuleNotFoundError ({SEEN})",
        MEASURED,
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
_RAISE_ON_CPU = Fact(
    "on CPU the exception reaches the caller as a JaxRuntimeError that quotes its traceback, "
    f"not as the exception raised ({SEEN})",
    MEASURED,
    "https://docs.jax.dev/en/latest/external-callbacks.html",
)
XLA_CLIENT_SRC = "https://github.com/jax-ml/jax/blob/jax-v0.6.2/jax/lib/xla_client.py"

RULES: tuple[Rule, ...] = (
    Rule(
        "JXC001",
        "`host_callback.id_tap`",
        "host_callback.id_tap was removed from JAX",
        "jax.debug.callback(fn, x), or jax.experimental.io_callback(fn, None, x, ordered=True); "
        "fn gets no `transforms` argument and the call returns None, not x",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
        versions="JAX 0.4.35 and later",
    ),
    Rule(
        "JXC002",
        "`host_callback.id_print`",
        "host_callback.id_print was removed from JAX",
        'jax.debug.print("{x}", x=x); it returns None, not x',
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
        versions="JAX 0.4.35 and later",
    ),
    Rule(
        "JXC003",
        "`host_callback.call`",
        "host_callback.call was removed from JAX",
        "jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method=...) for a pure fn, "
        "jax.experimental.io_callback(fn, result_shape_dtypes, *args) for one with side effects",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
        versions="JAX 0.4.35 and later",
    ),
    Rule(
        "JXC004",
        "`host_callback.barrier_wait`",
        "host_callback.barrier_wait was removed from JAX",
        "jax.effects_barrier()",
        False,
        (*_HCB_REMOVED, _HCB_MIGRATION),
        versions="JAX 0.4.35 and later",
    ),
    Rule(
        "JXC005",
        "an import or other use of `jax.experimental.host_callback`",
        "jax.experimental.host_callback no longer exists",
        "remove it; port each id_tap, id_print, call and barrier_wait (JXC001–JXC004)",
        False,
        _HCB_REMOVED,
        "an import that is a version check (in a `try` that catches ImportError or "
        "AttributeError, or under an `if` on JAX's version or `hasattr(jax, ...)`) is not "
        "reported",
        versions="JAX 0.8.0 and later, its functions from 0.4.35",
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
        "an old-API call in the other branch of an `if`, or in the `except` of a `try`, whose "
        "first branch makes the same call with `vmap_method` is a fallback and not reported",
        versions="JAX 0.6.0 and later",
    ),
    Rule(
        "JXC007",
        "`pure_callback` or `ffi_call` without `vmap_method`, on operands that may be batched",
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
            Fact(
                "only a batched operand raises: a call whose operands are constants, NumPy "
                "arrays, shapes, or values reduced over the vmapped axis name (lax.pmax, "
                "lax.psum), or that has no operands, runs under vmap without vmap_method, and "
                "so does one in a primitive's impl or lowering, behind its batching rule; "
                "lax.stop_gradient and a jnp.max inside the vmapped function keep the batch "
                f"axis and raise ({SEEN})",
                MEASURED,
                "https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html",
            ),
        ),
        "certain (“raises”) when the call is under jax.vmap in the same module, “may” otherwise; "
        "silent when every operand is visibly unbatched (a constant, a NumPy value, a shape, a "
        "module-level value, or passed through an `unvmap…` helper or lax.pmax/psum over a "
        "named axis first), when the call sits in a fallback branch beside one that passes "
        "vmap_method, or in a function registered as a primitive's impl or lowering "
        "(`def_impl`, `mlir.lower_fun`), which vmap never reaches; an operand made unbatched "
        "in another function is not seen (“may”); a call passing `**kwargs` is skipped",
        versions="JAX 0.6.0 and later",
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
            Fact(
                f"`import jax.experimental.export` raises ModuleNotFoundError ({SEEN})",
                MEASURED,
                CHANGELOG,
            ),
        ),
        "an import guarded by a version check (`try: … except ImportError`, an `if` on JAX's "
        "version) is a fallback and not reported",
        versions="JAX 0.4.36 and later",
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
            Fact(
                'under jit, `jax.debug.print(f"x={x}")` prints the tracer, '
                f"`x=JitTracer(float32[3])`, not the values ({SEEN})",
                MEASURED,
                "https://docs.jax.dev/en/latest/debugging/print_breakpoint.html",
            ),
        ),
        "a string built from plain Python values known at trace time prints correctly, and "
        "the rule cannot tell them from arrays; an f-string that also leaves an escaped "
        "`{{placeholder}}` for JAX is taken as static text and not reported",
        versions=EVERY_VERSION,
    ),
    Rule(
        "JXC010",
        "`raise` in a function passed to `pure_callback`",
        "raise in a pure_callback host function: the behaviour is undefined",
        "return a value (a flag, NaN) and check it in JAX; jax.experimental.checkify for "
        "runtime errors; io_callback for a host call that may fail",
        False,
        (_NO_RAISE, _RAISE_ON_CPU),
        "only functions defined in the same module and passed by name, functools.partial or "
        "a lambda that calls one; a raise the function catches itself is reported too",
        versions=EVERY_VERSION,
    ),
    Rule(
        "JXC011",
        "`assert` in a function passed to `pure_callback`",
        "assert in a pure_callback host function: a failing assert raises, which is undefined",
        "return a value (a flag, NaN) and check it in JAX; jax.experimental.checkify for "
        "runtime checks",
        True,
        (_NO_RAISE, _RAISE_ON_CPU),
        "an assert that can never fail is harmless; the rule reports every one",
        versions=EVERY_VERSION,
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
            Fact(
                f"ValueError: Cannot `vmap` ordered IO callback. ({SEEN})",
                MEASURED,
                "https://docs.jax.dev/en/latest/external-callbacks.html",
            ),
        ),
        "sees functions decorated with or passed to jax.vmap in this module, and the functions "
        "they name, and io_callback called directly or through functools.partial(io_callback, "
        "ordered=True); misses vmaps in other modules, reports a function that is also called "
        "without vmap",
        versions=EVERY_VERSION,
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
                "`import jax.extend.ffi` raises ModuleNotFoundError, `jax.extend.ffi` an "
                f"AttributeError ({SEEN})",
                MEASURED,
                "https://github.com/jax-ml/jax/blob/main/CHANGELOG.md",
            ),
        ),
        "a version check is not reported: an import or a use in a `try` that catches "
        "ImportError or AttributeError, or under an `if` on JAX's version or "
        "`hasattr(jax, ...)`; a name bound both to jax.extend.ffi and to jax.ffi is read as "
        "jax.ffi",
        versions="JAX 0.7.0 and later",
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
        versions="JAX 0.6.0 and later",
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
        versions="JAX 0.4.35 and later, the versions with vmap_method",
    ),
    Rule(
        "JXC016",
        "an import or other use of `jax.lib.xla_client`",
        "jax.lib.xla_client no longer exists: importing it raises ImportError, and its "
        "register_custom_call_target is gone",
        "jax.ffi: register the kernel with jax.ffi.register_ffi_target(name, "
        "jax.ffi.pycapsule(fn), platform=...) (api_version=0 for an old-style custom-call "
        "kernel) and call it with jax.ffi.ffi_call(name, result_shape_dtypes, vmap_method=...)",
        False,
        (
            Fact(
                "register_custom_call_target deprecated (“use the JAX FFI instead”) by JAX "
                "0.4.38, removed in JAX 0.6.0; the module's other APIs removed by 0.8.0",
                "jax/lib/xla_client.py, jax v0.4.38, v0.6.2 and v0.8.0",
                XLA_CLIENT_SRC,
            ),
            Fact(
                "the module jax.lib.xla_client is gone in JAX 0.9.0",
                "jax/lib/__init__.py, jax v0.8.0 (“will be removed in JAX v0.9.0”) and v0.9.0",
                "https://github.com/jax-ml/jax/blob/jax-v0.9.0/jax/lib/__init__.py",
            ),
            Fact(
                "`from jax.lib import xla_client` raises ImportError, `import "
                "jax.lib.xla_client` raises ModuleNotFoundError; jax.ffi.register_ffi_target "
                f"accepts a PyCapsule with api_version=0 ({SEEN})",
                MEASURED,
                "https://docs.jax.dev/en/latest/ffi.html",
            ),
        ),
        "a version check is not reported (as for JXC013); `jaxlib.xla_client` is not "
        "reported: it still imports",
        versions="JAX 0.6.0 and later, the import itself from 0.9.0",
    ),
    Rule(
        "JXC017",
        "a host function that returns complex values for a result declared real",
        "the host function returns complex values for a result declared real: the call fails "
        "when it runs",
        "declare the complex dtype (jnp.complex64) and take .real or jnp.abs in JAX, or return "
        "a real array from the host function (np.abs(z), z.real, or real and imaginary parts "
        "stacked on a last axis)",
        True,
        (
            Fact(
                "RuntimeError: Incorrect output dtype for return value #0: Expected: float32, "
                "Actual: complex64, inside a JaxRuntimeError, from pure_callback and "
                "io_callback, eagerly and under jit (seen on 0.4.30, 0.10.2 and 0.12.0.1)",
                MEASURED,
                "https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html",
            ),
            Fact(
                "the host result is converted to JAX's default precision first (complex128 to "
                "complex64, float64 to float32), so only the kind must match: .real, np.abs "
                "or np.fft.irfft on the host pass, and so does astype(np.float32), with "
                f"NumPy's ComplexWarning that the imaginary part is dropped ({SEEN})",
                MEASURED,
                "https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html",
            ),
        ),
        "only a host function of this module (by name, lambda or functools.partial) whose "
        "return visibly makes complex values (np.fft.fft, rfft…, a complex literal such as 1j, "
        "complex(), astype to a complex dtype), for a result declared with a literal real "
        'dtype (jnp.float32, np.float64, "float32", int…); a result declared as x.dtype is '
        "not judged",
        versions=EVERY_VERSION,
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
XLA_CLIENT = "jax.lib.xla_client"
OLD_APIS = (HCB, EXPORT, EXTEND_FFI, XLA_CLIENT)  # modules a newer JAX no longer has
# A `try` with a handler that catches one of these is a version check: the API it tries may
# be missing (an import: ImportError; an attribute such as `jax.ffi`: AttributeError).
PROBE_ERRORS = frozenset(
    {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"}
)
VERSION_NAME = re.compile(r"jax.*version|version.*jax", re.I)  # JAX_VERSION, _jax_version
# pure_callback's own keywords; any other keyword is passed on to the host function
PURE_CALLBACK_KEYWORDS = frozenset(
    {"callback", "result_shape_dtypes", "sharding", "vectorized", "vmap_method"}
)
# operands: what a batch axis cannot reach
STATIC_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes"})
REDUCE_OVER_AXIS = frozenset({"jax.lax.pmax", "jax.lax.pmin", "jax.lax.psum", "jax.lax.pmean"})
LIBRARIES = ("jax.", "numpy.", "math.", "scipy.")  # a call of them is batched iff an argument is
VALUE_BUILTINS = frozenset(
    {
        "int",
        "float",
        "bool",
        "complex",
        "str",
        "tuple",
        "list",
        "range",
        "min",
        "max",
        "abs",
        "sum",
        "round",
        "len",
    }
)
# complex results
FFT_MODULES = ("numpy.fft.", "scipy.fft.", "scipy.fftpack.")
COMPLEX_FFT = frozenset(
    {"fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "rfft2", "rfftn", "ihfft"}
)
REAL_MAKERS = frozenset(  # NumPy functions whose result is real whatever they are given
    {
        "abs",
        "absolute",
        "real",
        "imag",
        "angle",
        "isfinite",
        "isnan",
        "isinf",
        "isreal",
        "iscomplex",
        "irfft",
        "irfft2",
        "irfftn",
        "hfft",
        "fftfreq",
        "rfftfreq",
        "norm",
        "argmax",
        "argmin",
        "argsort",
        "shape",
        "size",
        "ndim",
        "count_nonzero",
    }
)
SAME_KIND_METHODS = frozenset(  # z.method(...) is complex when z is
    {
        "conj",
        "conjugate",
        "copy",
        "reshape",
        "sum",
        "mean",
        "prod",
        "cumsum",
        "transpose",
        "squeeze",
        "ravel",
        "flatten",
        "swapaxes",
        "take",
        "repeat",
        "dot",
        "__array__",
    }
)
REAL_DTYPES = frozenset(
    {
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "float_",
        "double",
        "single",
        "half",
        "longdouble",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int_",
        "intc",
        "uint",
        "bool_",
        "float",
        "int",
        "bool",
    }
)
COMPLEX_DTYPES = frozenset(
    {"complex64", "complex128", "complex_", "cdouble", "csingle", "clongdouble", "complex"}
)
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
        versions = RULE[self.rule].versions
        return (
            f"{self.path}:{self.line}:{self.col}: {self.rule} {self.message} "
            f"({versions}; use: {self.replacement})"
        )

    def as_dict(self) -> dict[str, object]:
        rule = RULE[self.rule]
        return {**dataclasses.asdict(self), "heuristic": rule.heuristic, "versions": rule.versions}


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
        # no rule at all would pass every file: never a silent pass
        if self.select is not None and not self.select:
            raise ValueError(
                f"{self.source}: select is empty, so no rule would run: name rule ids or "
                "prefixes, or leave select out to run every rule"
            )
        if not any(self.enabled(r.id) for r in RULES):
            raise ValueError(
                f"{self.source}: ignore {', '.join(self.ignore)} leaves no rule to run: "
                "ignore fewer rules"
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
    """The names one module, class or function body binds: imports, functions, parameters
    and assignments."""

    def __init__(self, node: ast.AST, parent: _Scope | None) -> None:
        self.node, self.parent = node, parent
        self.is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        self.imports: dict[str, str] = {}
        self.defs: dict[str, Function] = {}
        self.calls: dict[str, ast.Call] = {}  # name = f(...): functools.partial aliases
        self.classes: set[str] = set()
        self.params: set[str] = set()
        # name -> what each binding gives it: an expression, or None when it cannot be read
        # (a `with ... as`, an `except ... as`); `for n in xs` binds n to xs
        self.values: dict[str, list[ast.expr | None]] = {}
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            sig = node.args
            self.params = {p.arg for p in (*sig.posonlyargs, *sig.args, *sig.kwonlyargs)}
            self.params |= {p.arg for p in (sig.vararg, sig.kwarg) if p is not None}
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
            elif isinstance(stmt, ast.ClassDef):
                self.classes.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    self._bind(target, stmt.value)
                if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    if isinstance(stmt.value, ast.Lambda):  # f = lambda ...: a function
                        self.defs[stmt.targets[0].id] = stmt.value
                    elif isinstance(stmt.value, ast.Call):  # f = functools.partial(...)
                        self.calls[stmt.targets[0].id] = stmt.value
            elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and stmt.value is not None:
                self._bind(stmt.target, stmt.value)
            elif isinstance(stmt, ast.For | ast.AsyncFor):
                self._bind(stmt.target, stmt.iter)
            elif isinstance(stmt, ast.With | ast.AsyncWith):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
            elif isinstance(stmt, ast.Try | ast.TryStar):
                for h in stmt.handlers:
                    if h.name:
                        self.values.setdefault(h.name, []).append(None)

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        """``a = v``, ``a, b = v`` (each bound to all of v), ``a.x = v`` (no name bound)."""
        if isinstance(target, ast.Name):
            self.values.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for t in target.elts:
                self._bind(t.value if isinstance(t, ast.Starred) else t, value)

    def binds(self, name: str) -> bool:
        return (
            name in self.imports
            or name in self.defs
            or name in self.values
            or name in self.classes
            or name in self.params
        )

    def bound_call(self, name: str) -> ast.Call | None:
        """The call a name was assigned from (``log = functools.partial(...)``), if any. A
        name also imported from a module JAX no longer has is read as the assignment."""
        scope: _Scope | None = self
        while scope is not None:
            old_import = name in scope.imports and _old_api(scope.imports[name])
            if name in scope.defs or (name in scope.imports and not old_import):
                return None
            if name in scope.calls:
                return scope.calls[name]
            scope = scope.parent
        return None

    def find(self, name: str) -> tuple[_Scope | None, str | Function | None]:
        """The scope that binds a name to a function or an import, and that binding."""
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.defs:
                return scope, scope.defs[name]
            if name in scope.imports:
                return scope, scope.imports[name]
            scope = scope.parent
        return None, None

    def lookup(self, name: str) -> str | Function | None:
        return self.find(name)[1]


def _old_api(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in OLD_APIS)


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


def _is_flag(test: ast.expr) -> bool:
    """Whether an ``if`` tests a flag (``USE_LEGACY``, ``config.legacy_ffi``, ``not flag``,
    ``os.environ.get(...) == "1"``), not a mode or a value (``on_error == "raise"``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _is_flag(test.operand)
    if isinstance(test, ast.BoolOp):
        return all(_is_flag(v) for v in test.values)
    if isinstance(test, ast.Compare):
        return any(
            (isinstance(n, ast.Attribute) and n.attr in ("environ", "getenv"))
            or (isinstance(n, ast.Name) and n.id in ("environ", "getenv"))
            for n in ast.walk(test)
        )
    return isinstance(test, ast.Name | ast.Attribute)


def _callee(call: ast.Call) -> str:
    """What a callback call calls, to match a legacy call with its current twin: the host
    function of ``pure_callback(fn, ...)``, the target of ``ffi_call("name", ...)``."""
    first = call.args[0] if call.args else None
    for k in call.keywords:
        if k.arg in ("callback", "target_name"):
            first = k.value
    if first is None:
        return ""
    try:
        return ast.dump(first)
    except RecursionError:
        return "?"


def _leaves(body: list[ast.stmt]) -> bool:
    """Whether a block ends by leaving (return, raise, continue, break)."""
    return bool(body) and isinstance(body[-1], ast.Return | ast.Raise | ast.Continue | ast.Break)


def _catches_probe_error(handler: ast.ExceptHandler) -> bool:
    """Whether this handler catches what a missing API raises (ImportError, AttributeError)."""
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        (isinstance(t, ast.Name) and t.id in PROBE_ERRORS)
        or (isinstance(t, ast.Attribute) and t.attr in PROBE_ERRORS)
        for t in types
    )


def _short(node: ast.AST, limit: int = 28) -> str:
    try:
        text = ast.unparse(node)
    except RecursionError:  # ast.unparse recurses: a very deep expression
        return "an operand"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _either(names: Sequence[str]) -> str:
    """``x``, ``x or y``, ``x, y or z``, ``x, y, z or 4 more``."""
    if len(names) > 4:
        return f"{', '.join(names[:3])} or {len(names) - 3} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


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
        # > 0 inside a version check: a try that catches ImportError or AttributeError (or
        # its handler), an `if` or conditional expression on JAX's version or hasattr(jax, …)
        self.guarded = 0
        # module names that hold a version check, and the expression they were set from
        # (None: a constant set in a try that probes for an API)
        self.version_flags: dict[str, ast.expr | None] = {}
        self.old_code = 0  # > 0 in the branch of a version check that a newer JAX never takes
        # the APIs whose old-style calls are a fallback here: this branch of an if or try sits
        # beside one that makes the same call with vmap_method (JXC006, JXC007 not reported)
        self.fallback: list[frozenset[tuple[str, str]]] = []  # (api, what it calls)
        self.outer_calls: dict[int, ast.Call] = {}  # id(f(...)) -> f(...)(...): its operands
        # functions registered as a primitive's impl or lowering: the primitive's batching
        # rule runs first, so no batch axis reaches them (JXC007)
        self.primitive_rules: set[int] = set()
        self._resolving: set[str] = set()
        self._judging: set[tuple[int, str]] = set()
        # for JXC012, decided after the walk
        self.vmapped: dict[int, tuple[str, int]] = {}  # id(function) -> (vmapped name, line)
        self.refs: list[tuple[tuple[int, ...], Function]] = []  # enclosing ids -> function named
        self.ordered_io: list[tuple[ast.Call, tuple[int, ...]]] = []
        # JXC007: the call, its API, the enclosing functions, and the operands that may be
        # batched (None: not known, as for `call = ffi_call(...)` called elsewhere)
        self.no_vmap_method: list[tuple[ast.Call, str, tuple[int, ...], list[str] | None]] = []

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
        if self.old_code and RULE[rule_id].versions != EVERY_VERSION:
            return  # code only an older JAX runs
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
        """The dotted name an expression refers to through the imports, or None. A name
        imported from a module JAX no longer has and also assigned something else in the same
        scope (``from jax.extend import ffi`` beside ``ffi = jax.ffi``) is read as the
        assignment: a version shim, not old code."""
        if isinstance(node, ast.Name) and self.scope is not None:
            scope, hit = self.scope.find(node.id)
            if isinstance(hit, str) and scope is not None and _old_api(hit):
                return self._shimmed(node.id, hit, scope)
            return hit if isinstance(hit, str) else None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _shimmed(self, name: str, old: str, scope: _Scope) -> str | None:
        others = [
            v
            for v in scope.values.get(name, [])
            if v is not None and not (isinstance(v, ast.Constant) and v.value is None)
        ]
        if not others or name in self._resolving:
            return old
        self._resolving.add(name)
        try:
            resolved = [self.resolve(v) for v in others]
        finally:
            self._resolving.discard(name)
        new = [r for r in resolved if r is not None and not _old_api(r)]
        if new:
            return new[0]
        if all(r is not None for r in resolved):  # every other binding is old too
            return old
        return None  # bound to something else too: not known

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
        self._find_version_flags(node.body)
        yield from self._block(node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> Iterator[ast.AST]:
        yield from (*node.decorator_list, *node.bases, *node.keywords)
        outer, self.scope = self.scope, _Scope(node, self.scope)
        yield from self._block(node.body)
        self.scope = outer

    def _block(self, body: list[ast.stmt]) -> Iterator[ast.AST]:
        """The statements of a body. After ``if flag: ...; return`` with no ``else``, the
        statements that follow are its else branch, for the fallback rule (JXC006, JXC007)."""
        pushed, guarded, old = 0, 0, 0
        for i, stmt in enumerate(body):
            yield stmt
            if isinstance(stmt, ast.If) and not stmt.orelse and _leaves(stmt.body):
                direction = self._version_direction(stmt.test)  # the rest: the else branch
                fallback: frozenset[tuple[str, str]] = frozenset()
                if direction is not None or _is_flag(stmt.test):
                    rest = self._passes_vmap_method(body[i + 1 :])
                    fallback = frozenset(self._passes_vmap_method(stmt.body) - rest)
                self.fallback.append(fallback)
                pushed += 1
                g, o = direction in (0, 1), direction == 1
                self.guarded, self.old_code = self.guarded + g, self.old_code + o
                guarded, old = guarded + g, old + o
        if pushed:
            del self.fallback[-pushed:]
        self.guarded -= guarded
        self.old_code -= old

    def _function(self, node: Function) -> Iterator[ast.AST]:
        outer = self.scope
        self.scope = _Scope(node, outer)
        self.functions.append(node)
        if isinstance(node, ast.Lambda):
            yield node.body
        else:
            yield from self._block(node.body)
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
        guard = any(_catches_probe_error(h) for h in node.handlers)
        self.guarded += guard
        yield from self._block(node.body)
        # `try: new call with vmap_method / except TypeError: old call`: the handler is the
        # fallback for older JAX (the other order is not: a newer JAX does not raise there)
        tried = self._passes_vmap_method(node.body)
        for h in node.handlers:
            inner = _catches_probe_error(h)
            self.guarded += inner
            self.fallback.append(frozenset(tried - self._passes_vmap_method(h.body)))
            yield h
            self.fallback.pop()
            self.guarded -= inner
        self.guarded -= guard
        yield from (*node.orelse, *node.finalbody)

    def visit_If(self, node: ast.If) -> Iterator[ast.AST]:
        yield node.test
        direction = self._version_direction(node.test)
        then = other = set()
        if direction is not None or _is_flag(node.test):
            then = self._passes_vmap_method(node.body)
            if not node.orelse and _leaves(node.body) and self.scope is not None:
                # `if flag: return old(...)` and the new call after it: the rest is the else
                other = self._passes_vmap_method(self._after(node))
            else:
                other = self._passes_vmap_method(node.orelse)
        self.fallback.append(frozenset(other - then))  # `if flag: old else: new`
        yield from self._branch(node.body, direction, new=1)
        self.fallback[-1] = frozenset(then - other)  # `if flag: new else: old`
        yield from self._branch(node.orelse, direction, new=-1)
        self.fallback.pop()

    def _branch(self, body: list[ast.stmt], direction: int | None, new: int) -> Iterator[ast.AST]:
        """One branch of an ``if`` on JAX's version: ``new`` is the direction in which it is
        the branch the newest JAX takes. The other branch is old code: nothing in it is a
        migration problem. Where the direction is not known, imports in both branches are
        version probes."""
        old = direction == -new
        guard = direction is not None and direction != new
        self.guarded += guard
        self.old_code += old
        yield from self._block(body)
        self.old_code -= old
        self.guarded -= guard

    def visit_IfExp(self, node: ast.IfExp) -> Iterator[ast.AST]:
        yield node.test
        direction = self._version_direction(node.test)  # jax.ffi if hasattr(jax, "ffi") else …
        for part, new in ((node.body, 1), (node.orelse, -1)):
            old = direction == -new
            guard = direction is not None and direction != new
            self.guarded += guard
            self.old_code += old
            yield part
            self.old_code -= old
            self.guarded -= guard

    def _version_direction(self, test: ast.expr, depth: int = 0) -> int | None:
        """Whether a test is on JAX's version or on what JAX has, and which way: 1 when it
        holds on the newest JAX (``jax.__version_info__ >= (0, 6)``, ``hasattr(jax,
        "ffi")``), -1 when it does not (``<``, ``hasattr(jax.extend, "ffi")``, ``not ...``),
        0 when it is a version check of unknown direction (a flag set in a ``try``), None when
        it is no version check."""
        if depth > 8:
            return None
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            d = self._version_direction(test.operand, depth + 1)
            return None if d is None else -d
        if isinstance(test, ast.BoolOp):
            found = [self._version_direction(v, depth + 1) for v in test.values]
            known = [d for d in found if d is not None]
            if not known:
                return None
            return known[0] if all(d == known[0] for d in known) else 0
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left = self._mentions_version(test.left)
            right = self._mentions_version(test.comparators[0])
            if left == right:
                return 0 if left else None
            op = type(test.ops[0])
            sign = {ast.Gt: 1, ast.GtE: 1, ast.Lt: -1, ast.LtE: -1}.get(op, 0)
            return sign if left else -sign
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id in ("hasattr", "getattr")
            and len(test.args) > 1
            and isinstance(test.args[1], ast.Constant)
            and isinstance(test.args[1].value, str)
        ):
            base = self.resolve(test.args[0]) or ""
            if base.split(".")[0] in ("jax", "jaxlib"):
                return -1 if _old_api(f"{base}.{test.args[1].value}") else 1
        if isinstance(test, ast.Name) and test.id in self.version_flags:
            value = self.version_flags[test.id]
            d = None if value is None else self._version_direction(value, depth + 1)
            return 0 if d is None else d
        return 0 if self._mentions_version(test) else None

    def _mentions_version(self, test: ast.expr) -> bool:
        """Whether an expression reads JAX's version or what JAX has: ``jax.__version__``,
        ``hasattr(jax, "ffi")``, a name such as ``JAX_VERSION``, or a module flag set from
        one of them."""
        for n in ast.walk(test):
            if isinstance(n, ast.Attribute):
                if n.attr in ("__version__", "__version_info__", "version_info") and (
                    self.resolve(n.value) or ""
                ).startswith("jax"):
                    return True
                if VERSION_NAME.search(n.attr):
                    return True
            elif isinstance(n, ast.Name):
                if n.id in self.version_flags or VERSION_NAME.search(n.id):
                    return True
            elif (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id in ("hasattr", "getattr")
                and n.args
                and (self.resolve(n.args[0]) or "").startswith("jax")
            ):
                return True
        return False

    def _find_version_flags(self, body: list[ast.stmt]) -> None:
        """Module names that record a version check: ``HAS_FFI = hasattr(jax, "ffi")``, or a
        constant assigned in a try that probes for an API (``HAS_FFI = True`` / ``False``)."""
        stack: list[tuple[ast.stmt, bool]] = [(s, False) for s in reversed(body)]
        while stack:
            stmt, probe = stack.pop()
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                probed = probe and isinstance(stmt.value, ast.Constant)
                if probed or self._mentions_version(stmt.value):
                    for t in targets:
                        if isinstance(t, ast.Name):
                            self.version_flags[t.id] = None if probed else stmt.value
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            inner = probe
            if isinstance(stmt, ast.Try | ast.TryStar):
                inner = probe or any(_catches_probe_error(h) for h in stmt.handlers)
            blocks = [getattr(stmt, f, []) for f in ("body", "orelse", "finalbody")]
            blocks += [h.body for h in getattr(stmt, "handlers", [])]
            for block in reversed(blocks):
                stack += [(s, inner) for s in reversed(block)]

    def _passes_vmap_method(self, body: Sequence[ast.AST]) -> set[tuple[str, str]]:
        """The callback calls made with vmap_method in these statements: ``(api, what it
        calls)``, the host function of a ``pure_callback`` or the target of an ``ffi_call``."""
        out: set[tuple[str, str]] = set()
        for stmt in body:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Call) and any(k.arg == "vmap_method" for k in n.keywords):
                    name = self.resolve(n.func)
                    if name in PURE_CALLBACK:
                        out.add(("pure_callback", _callee(n)))
                    elif name in FFI_CALL:
                        out.add(("ffi_call", _callee(n)))
        return out

    def _after(self, node: ast.stmt) -> list[ast.stmt]:
        """The statements after this one in the body that holds it (of the current scope's
        own statements), for ``if ...: return`` without ``else``."""
        scope_node = self.scope.node if self.scope is not None else None
        bodies: list[list[ast.stmt]] = []
        if isinstance(
            scope_node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            stack = [scope_node.body]
            while stack:
                body = stack.pop()
                bodies.append(body)
                for stmt in body:
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        continue
                    stack += [getattr(stmt, f, []) for f in ("body", "orelse", "finalbody")]
                    stack += [h.body for h in getattr(stmt, "handlers", [])]
        for body in bodies:
            for i, stmt in enumerate(body):
                if stmt is node:
                    return body[i + 1 :]
        return []

    def _in_fallback(self, api: str, call: ast.Call) -> bool:
        key = (api, _callee(call))
        return any(key in f for f in self.fallback)

    # -- imports: JXC005, JXC008, JXC013, JXC016

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
        elif name == XLA_CLIENT or name.startswith(XLA_CLIENT + "."):
            self.report(alias, "JXC016")

    # -- references: JXC001–JXC005, JXC013, JXC016

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._host_callback_use(node)
            target = self.function_of(node)
            if target is not None:
                self.refs.append((tuple(id(f) for f in self.functions), target))

    def visit_Attribute(self, node: ast.Attribute) -> Iterator[ast.AST]:
        if isinstance(node.ctx, ast.Load):
            self._host_callback_use(node)
            if not self.guarded:  # jax.extend.ffi, jax.lib.xla_client, spelled out
                name = self.resolve(node)
                if name == EXTEND_FFI:
                    self.report(node, "JXC013")
                elif name == XLA_CLIENT:
                    self.report(node, "JXC016")
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

    # -- calls: JXC006, JXC007, JXC009–JXC012, JXC014, JXC015, JXC017

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
        if isinstance(node.func, ast.Call):  # f(...)(operands): ffi_call's operands
            self.outer_calls[id(node.func)] = node
        self._primitive_rule(node)
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
            if self._in_fallback(api, node) or self.old_code:
                pass  # beside a branch that passes vmap_method, or only an old JAX runs it
            elif "vectorized" in kw:
                self._vectorized(kw["vectorized"], api)
            elif "vmap_method" not in kw and all(k.arg for k in node.keywords):
                operands = self._operands(node, api)
                maybe = (
                    None
                    if operands is None
                    else [
                        name
                        for o in operands
                        if not self._unbatched(o, self.scope)
                        for name in self._batch_sources(o)
                    ]
                )
                if maybe is None or maybe:
                    self.no_vmap_method.append(
                        (node, api, tuple(id(f) for f in self.functions), maybe)
                    )
            if name in PURE_CALLBACK:
                callback = node.args[0] if node.args else getattr(kw.get("callback"), "value", None)
                fn = self.function_of(callback)
                if fn is not None:
                    self._raises_in(fn, node)
                self._complex_result(node, api, kw)
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
            self._complex_result(node, "io_callback", kw)
        elif name == VMAP:
            fun = node.args[0] if node.args else getattr(kw.get("fun"), "value", None)
            fn = self.function_of(fun)
            if fn is not None:
                label = fn.name if not isinstance(fn, ast.Lambda) else "a lambda"
                self.vmapped.setdefault(id(fn), (label, node.lineno))
        yield from _children(node)

    def _primitive_rule(self, call: ast.Call) -> None:
        """``p.def_impl(f)``, ``mlir.lower_fun(f, ...)``, ``mlir.register_lowering(p, f)``."""
        func = call.func
        ident = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        fun = None
        if ident in ("def_impl", "lower_fun") and call.args:
            fun = call.args[0]
        elif ident == "register_lowering" and len(call.args) > 1:
            fun = call.args[1]
        fn = self.function_of(fun)
        if fn is not None:
            self.primitive_rules.add(id(fn))

    def _vectorized(self, kw: ast.keyword, api: str) -> None:
        value = kw.value.value if isinstance(kw.value, ast.Constant) else None
        use = None  # the rule's replacement, naming both cases
        if value is True:
            use = 'vmap_method="expand_dims" if fn broadcasts, "broadcast_all" if it needs equal shapes'
        elif value is False:
            use = 'vmap_method="sequential"'
        self.report(kw, "JXC006", f"{api}(vectorized=...) was removed from JAX", use)

    def _raises_in(self, fn: Function, call: ast.Call) -> None:
        fn = self._through_lambda(fn)
        if isinstance(fn, ast.Lambda):  # a lambda holds no statements
            return
        where = f"{fn.name}, which is passed to pure_callback on line {call.lineno}"
        for stmt in _own_statements(fn.body):
            if isinstance(stmt, ast.Raise):
                self.report(stmt, "JXC010", f"raise in {where}: the behaviour is undefined")
            elif isinstance(stmt, ast.Assert):
                self.report(
                    stmt, "JXC011", f"assert in {where}: if it fails, the behaviour is undefined"
                )

    def _through_lambda(self, fn: Function) -> Function:
        """``lambda x: host(x, 2)``: host; any other function: itself."""
        if isinstance(fn, ast.Lambda) and isinstance(fn.body, ast.Call):
            inner = self.function_of(fn.body.func)
            if inner is not None and not isinstance(inner, ast.Lambda):
                return inner
        return fn

    # -- JXC007: which operands a batch axis can reach

    def _operands(self, call: ast.Call, api: str) -> list[ast.expr] | None:
        """The operands a callback call passes to JAX, or None where they are not visible
        (``f = ffi_call(...)`` called somewhere else)."""
        if api == "pure_callback":
            extra = [k.value for k in call.keywords if k.arg not in PURE_CALLBACK_KEYWORDS]
            return [*call.args[2:], *extra]
        if len(call.args) > 2:  # the old inline form (JXC014)
            return list(call.args[2:])
        outer = self.outer_calls.get(id(call))
        return None if outer is None else list(outer.args)  # keywords are static attributes

    def _unbatched(self, e: ast.expr, scope: _Scope | None, depth: int = 0) -> bool:
        """Whether no batch axis can reach this value: it is built from constants, NumPy,
        shapes and module-level values, or reduced out of the batch first (an ``unvmap…``
        helper, lax.pmax/psum over a named axis). A parameter, or anything not known, may
        carry one."""
        if depth > 30:
            return False
        d = depth + 1
        if isinstance(e, ast.Constant | ast.Lambda | ast.JoinedStr):
            return True
        if isinstance(e, ast.Name):
            return self._name_unbatched(e.id, e.lineno, scope, d)
        if isinstance(e, ast.Attribute):
            if e.attr in STATIC_ATTRS:  # x.shape, x.dtype: static under any transformation
                return True
            return self._unbatched(e.value, scope, d)
        if isinstance(e, ast.Tuple | ast.List | ast.Set):
            return all(self._unbatched(x, scope, d) for x in e.elts)
        if isinstance(e, ast.Dict):
            return all(self._unbatched(x, scope, d) for x in e.values)
        if isinstance(e, ast.BinOp):
            return self._unbatched(e.left, scope, d) and self._unbatched(e.right, scope, d)
        if isinstance(e, ast.UnaryOp):
            return self._unbatched(e.operand, scope, d)
        if isinstance(e, ast.BoolOp):
            return all(self._unbatched(x, scope, d) for x in e.values)
        if isinstance(e, ast.Compare):
            parts = [e.left, *e.comparators]
            return all(self._unbatched(x, scope, d) for x in parts)
        if isinstance(e, ast.IfExp):
            parts = [e.test, e.body, e.orelse]
            return all(self._unbatched(x, scope, d) for x in parts)
        if isinstance(e, ast.Subscript):
            return self._unbatched(e.value, scope, d) and self._unbatched(e.slice, scope, d)
        if isinstance(e, ast.Slice):
            parts = [x for x in (e.lower, e.upper, e.step) if x is not None]
            return all(self._unbatched(x, scope, d) for x in parts)
        if isinstance(e, ast.Call):
            return self._call_unbatched(e, scope, d)
        return False

    def _batch_sources(self, e: ast.expr) -> list[str]:
        """The names in an operand that may carry a batch axis (``x`` in
        ``lax.stop_gradient(x)``), or the operand itself when no name is to blame."""
        called = {id(n.func) for n in ast.walk(e) if isinstance(n, ast.Call)}
        found = sorted(
            (n for n in ast.walk(e) if isinstance(n, ast.Name)),
            key=lambda n: (n.lineno, n.col_offset),
        )
        names = [
            n.id
            for n in found
            if isinstance(n.ctx, ast.Load)
            and id(n) not in called  # helper(...): the call, not the name, is not known
            and not self._name_unbatched(n.id, n.lineno, self.scope, 0)
        ]
        return list(dict.fromkeys(names)) or [_short(e)]

    def _call_unbatched(self, e: ast.Call, scope: _Scope | None, depth: int) -> bool:
        func = e.func
        ident = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if "unvmap" in ident.lower():  # unvmap_max, unvmap_any: reduced over the batch
            return True
        name = self.resolve(func)
        args = [*e.args, *(k.value for k in e.keywords)]
        if name in REDUCE_OVER_AXIS and (
            len(e.args) > 1 or "axis_name" in {k.arg for k in e.keywords}
        ):
            return True  # lax.pmax(i, "batch"): one value for the whole batch
        if isinstance(func, ast.Name) and ident == "len" and name is None:
            return True
        plain = isinstance(func, ast.Name) and name is None and not self._binds(ident, scope)
        library = name is not None and name.startswith(LIBRARIES)
        if library or (plain and ident in VALUE_BUILTINS):
            return all(self._unbatched(a, scope, depth) for a in args)
        if isinstance(func, ast.Attribute) and name is None:  # x.astype(...), x.sum()
            return self._unbatched(func.value, scope, depth) and all(
                self._unbatched(a, scope, depth) for a in args
            )
        return False  # a function of this module, or not known

    def _binds(self, name: str, scope: _Scope | None) -> bool:
        while scope is not None:
            if scope.binds(name):
                return True
            scope = scope.parent
        return False

    def _name_unbatched(self, name: str, line: int, scope: _Scope | None, depth: int) -> bool:
        while scope is not None:
            if scope.is_function:
                values = scope.values.get(name, [])
                rebound = any(v is not None and v.lineno < line for v in values)
                if name in scope.params and not rebound:  # x, or x read before `x = ...`
                    return False
                if values:
                    key = (id(scope), name)
                    if key in self._judging:  # i = i + 1
                        return False
                    self._judging.add(key)
                    try:
                        return all(
                            v is not None and self._unbatched(v, scope, depth)
                            for v in scope.values[name]
                        )
                    finally:
                        self._judging.discard(key)
                if scope.binds(name):  # a function or module: not an array
                    return True
            elif not isinstance(scope.node, ast.ClassDef):  # the module
                return scope.binds(name)  # a module-level value; a name never bound: not known
            scope = scope.parent
        return False

    # -- JXC017: complex values for a real result

    def _complex_result(self, call: ast.Call, api: str, kw: dict[str, ast.keyword]) -> None:
        callback = call.args[0] if call.args else getattr(kw.get("callback"), "value", None)
        result = call.args[1] if len(call.args) > 1 else None
        if result is None:
            result = getattr(kw.get("result_shape_dtypes"), "value", None)
        fn = self.function_of(callback)
        if fn is None or result is None:
            return
        declared = self._declared_dtypes(result)
        if not declared or not any(declared):
            return
        fn = self._through_lambda(fn)
        returns: list[ast.expr] = (
            [fn.body]
            if isinstance(fn, ast.Lambda)
            else [
                s.value for s in _own_statements(fn.body) if isinstance(s, ast.Return) and s.value
            ]
        )
        label = "the lambda" if isinstance(fn, ast.Lambda) else fn.name
        for ret in returns:
            values = [ret]
            if len(declared) > 1:
                if not (isinstance(ret, ast.Tuple | ast.List) and len(ret.elts) == len(declared)):
                    continue
                values = list(ret.elts)
            for i, (value, dtype) in enumerate(zip(values, declared, strict=True)):
                source = self._complex_source(value, fn, 0) if dtype else None
                if source is None:
                    continue
                what, line = source
                which = f"result {i} " if len(declared) > 1 else "a result "
                self.report(
                    call,
                    "JXC017",
                    f"{label} returns complex values ({what}, line {line}) for {which}that "
                    f"{api} declares {dtype}: the call fails when it runs (“Incorrect output "
                    f"dtype … Actual: complex64”; to tell, look at the dtype {label} returns "
                    "for a sample input)",
                )
                return

    def _declared_dtypes(self, result: ast.expr, depth: int = 0) -> list[str | None]:
        """For each declared result, its dtype as written when it is visibly real, else None."""
        if depth > 5:
            return []
        if isinstance(result, ast.Name) and self.scope is not None:
            scope: _Scope | None = self.scope
            while scope is not None and result.id not in scope.values:
                scope = scope.parent
            values = [] if scope is None else scope.values[result.id]
            if len(values) == 1 and values[0] is not None:
                return self._declared_dtypes(values[0], depth + 1)
            return []
        if isinstance(result, ast.Tuple | ast.List):
            return [
                (inner[0] if len(inner) == 1 else None)
                for inner in (self._declared_dtypes(x, depth + 1) for x in result.elts)
            ]
        if isinstance(result, ast.Call) and self.resolve(result.func) == "jax.ShapeDtypeStruct":
            dtype = result.args[1] if len(result.args) > 1 else None
            for k in result.keywords:
                if k.arg == "dtype":
                    dtype = k.value
            return [
                ast.unparse(dtype)
                if dtype is not None and self._dtype_kind(dtype) == "real"
                else None
            ]
        return []

    def _dtype_kind(self, e: ast.expr) -> str | None:
        """``"real"`` or ``"complex"`` for a dtype written out (jnp.float32, "complex64",
        float), None when it is not visible (x.dtype)."""
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            word = e.value
        elif isinstance(e, ast.Name | ast.Attribute):
            name = self.resolve(e)
            if name is not None:
                if not name.startswith(("numpy.", "jax.numpy.", "ml_dtypes.")):
                    return None
                word = name.split(".")[-1]
            elif isinstance(e, ast.Name) and not self._binds(e.id, self.scope):
                word = e.id  # the builtins float, int, bool, complex
            else:
                return None  # x.dtype, a variable: not visible
        elif isinstance(e, ast.Call) and e.args and (self.resolve(e.func) or "").endswith(".dtype"):
            return self._dtype_kind(e.args[0])  # np.dtype("float32")
        else:
            return None
        if word in REAL_DTYPES:
            return "real"
        if word in COMPLEX_DTYPES:
            return "complex"
        return None

    def _complex_source(self, e: ast.expr, fn: Function, depth: int) -> tuple[str, int] | None:
        """What visibly makes this host value complex, and its line; None when nothing does
        (real, or not known)."""
        if depth > 12:
            return None
        d = depth + 1
        if isinstance(e, ast.Constant):
            return (ast.unparse(e), e.lineno) if isinstance(e.value, complex) else None
        if isinstance(e, ast.BinOp):
            return self._complex_source(e.left, fn, d) or self._complex_source(e.right, fn, d)
        if isinstance(e, ast.UnaryOp):
            return self._complex_source(e.operand, fn, d)
        if isinstance(e, ast.IfExp):
            return self._complex_source(e.body, fn, d) or self._complex_source(e.orelse, fn, d)
        if isinstance(e, ast.Subscript):
            return self._complex_source(e.value, fn, d)
        if isinstance(e, ast.Tuple | ast.List):
            for x in e.elts:
                hit = self._complex_source(x, fn, d)
                if hit:
                    return hit
            return None
        if isinstance(e, ast.Attribute):
            return self._complex_source(e.value, fn, d) if e.attr in ("T", "mT") else None
        if isinstance(e, ast.Name):
            if isinstance(fn, ast.Lambda):
                return None
            before = [
                s
                for s in _own_statements(fn.body)
                if isinstance(s, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == e.id for t in s.targets)
                and s.lineno <= e.lineno
            ]
            return self._complex_source(before[-1].value, fn, d) if before else None
        if isinstance(e, ast.Call):
            return self._complex_call(e, fn, d)
        return None

    def _complex_call(self, e: ast.Call, fn: Function, depth: int) -> tuple[str, int] | None:
        func = e.func
        name = self.resolve(func)
        dtype_kw = next((k.value for k in e.keywords if k.arg == "dtype"), None)
        if isinstance(func, ast.Attribute) and name is None:  # a method of a value
            if func.attr == "astype":
                dtype = e.args[0] if e.args else dtype_kw
                if dtype is not None and self._dtype_kind(dtype) == "complex":
                    return (f"astype({ast.unparse(dtype)})", e.lineno)
                return None
            if func.attr in SAME_KIND_METHODS:
                return self._complex_source(func.value, fn, depth)
            return None
        if name is None:
            if (
                isinstance(func, ast.Name)
                and func.id == "complex"
                and not self._binds("complex", self.scope)
            ):
                return ("complex(...)", e.lineno)
            return None
        short = name.split(".")[-1]
        shown = ast.unparse(func)
        if not name.startswith(("numpy.", "scipy.")):
            return None  # a function of this module, or not known
        if (name.startswith(FFT_MODULES) and short in COMPLEX_FFT) or short in COMPLEX_DTYPES:
            return (shown, e.lineno)  # np.fft.rfft(x), np.complex64(x)
        if short in REAL_MAKERS:
            return None
        dtypes = [a for a in (*e.args, dtype_kw) if a is not None and self._dtype_kind(a)]
        if dtypes:  # np.asarray(z, np.float32), np.zeros(n, dtype=complex)
            kind = self._dtype_kind(dtypes[-1])
            return (
                (f"{shown}(…, {ast.unparse(dtypes[-1])})", e.lineno) if kind == "complex" else None
            )
        for a in e.args:  # np.exp(1j * x), np.fft.fftshift(z): complex if an argument is
            hit = self._complex_source(a, fn, depth)
            if hit:
                return hit
        return None

    # -- after the walk: JXC007, JXC012

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

        for call, api, enclosing, maybe in self.no_vmap_method:
            if any(e in self.primitive_rules for e in enclosing):
                continue  # a primitive's impl or lowering: its batching rule took the batch
            where = under_vmap(enclosing)
            if where:
                message = f"{api} without vmap_method {where}: that raises NotImplementedError"
            elif maybe:
                these = _either(list(dict.fromkeys(maybe)))
                message = (
                    f"{api} without vmap_method may raise NotImplementedError: it does if "
                    f"jax.vmap batches {these} (to tell: is this code run under jax.vmap, here "
                    f"or by a caller, with {these} mapped?)"
                )
            else:
                message = (
                    f"{api} without vmap_method may raise NotImplementedError: the function it "
                    "returns does if jax.vmap batches an operand it is called with (to tell: is "
                    "that call run under jax.vmap with an operand mapped?)"
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

exit status: 0 nothing found, 1 findings, 2 a path could not be checked (or a bad option,
or a selection that leaves no rule to run).
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
