"""jaxcb_debug: observe jaxcb computations with `jax.debug.callback` and `jax.debug.print`.

A debug callback returns nothing to the computation, so the observers here
compute the native `jax.numpy` result and report what they saw to the host; the
logging patterns (`log_steps`, `progress`) call the host on every (reported)
step. Nothing blocks differentiation: on JAX 0.10.2 and later the host sees the
forward pass only. `host_draw` cannot be written this way (no value comes back).
The five observers share one module, `observers` (one contract, one helper); the
logging patterns have a module each. Each module's docstring states its contract.
<!-- jaxcb:expect debug.callback * grad status=ok effects.verdict=exact jax=0.12.0.1|0.10.2 -->
"""

from .log_steps import log_steps, log_steps_log, log_steps_print
from .observers import bessel_jv, cubic_root, expm, sin_scale, sum_mean
from .progress import progress, progress_log, progress_print

__all__ = [
    "bessel_jv",
    "cubic_root",
    "expm",
    "log_steps",
    "log_steps_log",
    "log_steps_print",
    "progress",
    "progress_log",
    "progress_print",
    "sin_scale",
    "sum_mean",
]
