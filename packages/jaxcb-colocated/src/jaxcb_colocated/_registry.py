"""The colocated_python row of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import jax

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec

# Every pure computation is a section of one module, which names them in its __all__ (one
# added there is in the row with no edit here).
PURE = tuple(importlib.import_module("jaxcb_colocated.computations").__all__)
UNSUPPORTED = {
    "host_draw": "not written: log_steps shows what colocated_python does to state that a "
    "function captures (the host runs a copy)",
    "progress": "not written: progress is log_steps reporting every few steps; see log_steps",
}
MISSING = f"JAX {jax.__version__} has no jax.experimental.colocated_python"


def variants() -> list[VariantSpec]:
    computations = importlib.import_module("jaxcb_colocated.computations")
    log_steps = importlib.import_module("jaxcb_colocated.log_steps")
    modules = dict.fromkeys(PURE, computations) | {"log_steps": log_steps}
    here = computations.colocated_python is not None  # JAX 0.4.30 has none
    return [
        {
            "id": "colocated_python/default",
            "mechanism": "colocated_python",
            "label": "colocated_python",
            "doc": "Python run on the host of the devices the arguments live on, called "
            "outside jit with concrete arrays; the function is pickled to get there.",
            "package": "jaxcb_colocated",
            "order": 70,
            "implementations": {n: getattr(m, n) for n, m in modules.items()} if here else {},
            "modules": modules,
            "unsupported": UNSUPPORTED | ({} if here else dict.fromkeys(modules, MISSING)),
            "probe": {n: (f"{n}_on_host",) for n in PURE} | {"log_steps": ("on_host",)},
            "eager_only": True,  # colocated_python runs outside jit, on concrete arrays
        }
    ]
