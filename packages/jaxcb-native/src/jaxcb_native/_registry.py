"""The native baseline row of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


PURE = _patterns()  # the effects have no module here: see UNSUPPORTED
UNSUPPORTED = {
    "log_steps": "compiled JAX code cannot reach the host without a callback",
    "host_draw": ("a host numpy Generator is host state; native code uses jax.random keys instead"),
    "progress": "compiled JAX code cannot reach the host without a callback",
}


def variants() -> list[VariantSpec]:
    modules = {n: importlib.import_module(f"jaxcb_native.{n}") for n in PURE}
    return [
        {
            "id": "native/jax",
            "mechanism": "native",
            "label": "native jax.numpy",
            "doc": "The computation in jax.numpy / jax.scipy / lax: no host round trip.",
            "package": "jaxcb_native",
            "order": 10,
            "implementations": {n: getattr(m, n) for n, m in modules.items()},
            "modules": modules,
            "unsupported": dict(UNSUPPORTED),
            "probe": None,  # nothing runs on the host: the baseline
        }
    ]
