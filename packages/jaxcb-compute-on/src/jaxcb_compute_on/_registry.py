"""The compute_on row of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import jax

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec

# Every pure computation is a section of one module, which names them in its __all__ (one
# added there is in the row with no edit here).
PURE = tuple(importlib.import_module("jaxcb_compute_on.computations").__all__)
UNSUPPORTED = {
    "log_steps": "compute_on runs XLA operations on the host, not Python: nothing can log",
    "host_draw": "compute_on runs XLA operations on the host, not Python: no numpy Generator",
    "progress": "compute_on runs XLA operations on the host, not Python: nothing can report",
}
# Measured (tests/packages/test_native.py): JAX 0.4.30 fails to lower jax.scipy.linalg.expm
# under compute_on, and after that failure the same code fails without compute_on too, in the
# same process. No cell of this row would be stable there, so it is measured from 0.10.2 on.
BROKEN = jax.__version_info__ <= (0, 4, 30)
BROKEN_REASON = (
    "JAX 0.4.30 fails to lower jax.scipy.linalg.expm under compute_on (AttributeError from its "
    "MLIR lowering), and after that failure native expm fails too in the same process"
)


def variants() -> list[VariantSpec]:
    module = importlib.import_module("jaxcb_compute_on.computations")  # all of them in one module
    modules = dict.fromkeys(PURE, module)
    return [
        {
            "id": "compute_on/device_host",
            "mechanism": "compute_on",
            "label": 'compute_on("device_host")',
            "doc": "The jax.numpy computation, its operations marked to run on the host's "
            "processor: no Python, no callback.",
            "package": "jaxcb_compute_on",
            "order": 60,
            "implementations": {} if BROKEN else {n: getattr(module, n) for n in PURE},
            "modules": modules,
            "unsupported": UNSUPPORTED | (dict.fromkeys(PURE, BROKEN_REASON) if BROKEN else {}),
            "probe": None,  # nothing of Python runs on the host
        }
    ]
