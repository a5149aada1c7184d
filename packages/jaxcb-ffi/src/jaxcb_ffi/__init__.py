"""jaxcb ffi: every pure computation of the catalog as a C++ XLA FFI handler (`jax.ffi.ffi_call`).

Each module is one copyable pattern, with its C++ handler in the `.cc` file beside it:
the bare call `<name>_callback`, and the public function with a derivative rule and a
justified `vmap_method`; `log_steps` is a C++ logger, an `ffi_call` kept for its effect
(`has_side_effect=True`). The handlers are compiled into one plain shared library,
`libjaxcb_ffi.so`, when the package is installed, loaded with `ctypes` and registered
with `jax.ffi.register_ffi_target` on first use (`_library.py`). `jaxcb_ffi.noop` is the
fixed cost of one call (a benchmark helper, not in `__all__`). On a JAX without `jax.ffi`
the package imports, and calling it raises.
"""

from __future__ import annotations

from ._noop import noop as noop  # the benchmarks' fixed cost, not a catalog function
from .bessel_jv import bessel_jv, bessel_jv_callback
from .cubic_root import cubic_root, cubic_root_callback
from .expm import expm, expm_callback
from .log_steps import log_steps
from .sin_scale import sin_scale, sin_scale_callback
from .sum_mean import sum_mean, sum_mean_callback

__all__ = [
    "bessel_jv",
    "bessel_jv_callback",
    "cubic_root",
    "cubic_root_callback",
    "expm",
    "expm_callback",
    "log_steps",
    "sin_scale",
    "sin_scale_callback",
    "sum_mean",
    "sum_mean_callback",
]
