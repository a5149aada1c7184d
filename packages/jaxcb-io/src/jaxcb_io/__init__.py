"""jaxcb_io: every jaxcb computation through `jax.experimental.io_callback`.

An io_callback is not removed when its result is unused under `jax.jit`, so it
suits host code with effects (logging, progress reports, host random state). It
has no derivative rule, `ordered=True` calls cannot be batched, and inside a loop
that `grad` differentiates JAX may run it fewer times than the loop has steps. One module per computation; each module's docstring states its
contract.
<!-- jaxcb:expect io_callback * jit_unused status=ok effects.verdict=exact -->
<!-- jaxcb:expect io_callback sin_scale grad_scan_const effects.verdict=missing -->
<!-- jaxcb:expect io_callback log_steps grad_scan_args effects.verdict=none -->
"""

from .bessel_jv import bessel_jv
from .cubic_root import cubic_root
from .expm import expm
from .host_draw import host_draw
from .log_steps import log_steps
from .progress import progress
from .sin_scale import sin_scale
from .sum_mean import sum_mean

__all__ = [
    "bessel_jv",
    "cubic_root",
    "expm",
    "host_draw",
    "log_steps",
    "progress",
    "sin_scale",
    "sum_mean",
]
