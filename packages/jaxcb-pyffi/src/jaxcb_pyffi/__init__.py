"""jaxcb pyffi: every pure computation of the catalog through `jax.ffi.ffi_call` into a
Python function registered as an XLA FFI handler with `ctypes`.

Each module is one copyable pattern, the `ctypes` bridge included: a host
function `on_host(*inputs, *outputs)` that writes its result into XLA's output buffers in
place and returns `None`, registered as a CPU FFI target at import; the bare call
`<name>_callback`; and the public function with a derivative rule and a justified
`vmap_method`.

`jax.ffi` arrived in JAX 0.4.32 (as `jax.extend.ffi`; `jax.ffi` since 0.5.0, per the JAX
changelog). Where the installed JAX has no `jax.ffi` this package still imports
(`HAS_FFI` is then `False` and the patterns are absent), and its registry reports every
computation unsupported, with the reason.
"""

from __future__ import annotations

import jax

HAS_FFI = hasattr(jax, "ffi") and hasattr(jax.ffi, "register_ffi_target")
# JAX 0.5 to 0.7 send a handler's registration-time metadata request without the FFI API
# table (its `api` is NULL), so the bridge cannot name its FFI version and the registration
# fails: on 0.6.2 and 0.7.2 the CPU backend then does not start, on 0.5.3 the process aborts
# (measured; 0.8.3 sends the table). There the patterns are not imported, nothing registers,
# and the registry says why.
NO_METADATA_API = HAS_FFI and jax.__version_info__ < (0, 8)

if HAS_FFI and not NO_METADATA_API:
    from .bessel_jv import bessel_jv, bessel_jv_callback
    from .cubic_root import cubic_root, cubic_root_callback
    from .expm import expm, expm_callback
    from .sin_scale import sin_scale, sin_scale_callback
    from .sum_mean import sum_mean, sum_mean_callback

__all__ = [
    "HAS_FFI",
    "NO_METADATA_API",
    "bessel_jv",
    "bessel_jv_callback",
    "cubic_root",
    "cubic_root_callback",
    "expm",
    "expm_callback",
    "sin_scale",
    "sin_scale_callback",
    "sum_mean",
    "sum_mean_callback",
]
