"""jaxcb colocated_python: Python run on the host next to the devices, outside `jit`.

`jax.experimental.colocated_python` runs a Python function on the host of the devices its
`jax.Array` arguments live on (in one process on a CPU, this process), sending it there
pickled. `computations.py` runs the five pure computations through it, with the NumPy
functions of `jaxcb_pure`; `log_steps.py` logs each step of a Python loop of jitted steps.
Each module knows on its own whether the installed JAX has it.
"""

from __future__ import annotations

from .computations import bessel_jv, cubic_root, expm, sin_scale, sum_mean
from .log_steps import log_steps

__all__ = ["bessel_jv", "cubic_root", "expm", "log_steps", "sin_scale", "sum_mean"]
