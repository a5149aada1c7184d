"""jaxcb core: the computation catalog, the transform catalog, the probe contract, the data
schema and the support-matrix runner.

Mechanism-free: it never imports a mechanism package by name. Mechanism packages register
variants under the entry point group ``jaxcb.mechanisms``. Importing ``jaxcb_core`` itself
is cheap: ``jaxcb_core.schema`` (what the site reads) needs neither JAX nor NumPy.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["CATALOG", "Computation", "Variant", "by_name", "discover"]
__version__ = "0.1.0"

_LAZY = {
    "CATALOG": "catalog",
    "Computation": "catalog",
    "by_name": "catalog",
    "Variant": "mechanisms",
    "discover": "mechanisms",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
