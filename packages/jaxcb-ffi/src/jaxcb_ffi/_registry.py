"""The variants this package adds to the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it only tells the harness which function implements which
computation, and how host calls are counted (a counting shim in front of each handler,
`_probe.py`).
Where the installed JAX has no `jax.ffi`, both rows say so for every computation.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax

from ._probe import KernelProbe

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


LOGGER = "log_steps"  # a C++ logger: ffi_call with has_side_effect=True, no result
PURE = tuple(n for n in _patterns() if n != LOGGER)
EFFECTS = ("log_steps", "host_draw", "progress")
UNSUPPORTED = {
    "host_draw": (
        "reads and advances a host NumPy Generator, Python state that a C++ handler "
        "cannot reach (use jax.random keys)"
    ),
    "progress": (
        "an effect reported to a Python function, which a C++ handler cannot call (the C++ "
        "logger of log_steps writes every step to standard error instead)"
    ),
}
NO_RULE_UNSUPPORTED = {
    **UNSUPPORTED,
    "log_steps": "the C++ logger has no derivative rule to leave out: see the ffi_call row",
}
DOC = {
    "default": (
        "A C++ XLA FFI handler per computation, called with jax.ffi.ffi_call, with the "
        "pattern's vmap_method (broadcast_all) and its custom derivative rule."
    ),
    "no_rule": "The bare ffi_call into the same handler, without a derivative rule.",
}
PROBE = KernelProbe()


def missing_ffi() -> str | None:
    """Why this JAX cannot run the package (it lacks `jax.ffi`), or `None` when it can."""
    if importlib.util.find_spec("jax.ffi") is not None:
        return None
    return (
        f"jax.ffi is not in JAX {jax.__version__} "
        "(added in 0.4.32 as jax.extend.ffi, jax.ffi since 0.5.0)"
    )


def _module(name: str) -> Any:
    return importlib.import_module(f"jaxcb_ffi.{name}")


def variants() -> list[VariantSpec]:
    reason = missing_ffi()
    names = PURE + EFFECTS
    modules = {} if reason is not None else {n: _module(n) for n in (*PURE, LOGGER)}

    def row(
        key: str,
        label: str,
        order: int,
        implementations: Mapping[str, Callable[..., Any]],
        unsupported: Mapping[str, str],
    ) -> VariantSpec:
        spec: VariantSpec = {
            "id": f"ffi_call/{key}",
            "mechanism": "ffi_call",
            "label": label,
            "doc": DOC[key],
            "package": "jaxcb_ffi",
            "order": order,
            "implementations": implementations,
            "modules": {n: modules[n] for n in implementations},
            "unsupported": dict.fromkeys(names, reason) if reason else dict(unsupported),
            "probe": PROBE,
        }
        if modules:
            spec["bare"] = {"noop": _module("_noop").noop}
        return spec

    if reason is not None:  # JAX without jax.ffi: nothing here can run
        return [
            row("default", "ffi_call", 55, {}, {}),
            row("no_rule", "ffi_call, no rule", 56, {}, {}),
        ]
    return [
        row(
            "default",
            "ffi_call",
            55,
            {n: getattr(modules[n], n) for n in (*PURE, LOGGER)},
            UNSUPPORTED,
        ),
        row(
            "no_rule",
            "ffi_call, no rule",
            56,
            {n: getattr(modules[n], f"{n}_callback") for n in PURE},
            NO_RULE_UNSUPPORTED,
        ),
    ]
