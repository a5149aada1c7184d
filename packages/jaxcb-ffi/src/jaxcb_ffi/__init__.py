"""jaxcb ffi: every pure computation of the catalog as a C++ XLA FFI handler (`jax.ffi.ffi_call`).

Each module is one copyable pattern, with its C++ handler in the `.cc` file beside it:
the bare call `<name>_callback`, and the public function with a derivative rule and a
justified `vmap_method`; `log_steps` is a C++ logger, an `ffi_call` kept for its effect
(`has_side_effect=True`). Installing the package compiles each module's handlers into a
plain shared library of its own, `lib<name>.so` (the `CMakeLists.txt` beside them, which a
reader copies with a pattern), and each module loads its library with `ctypes` and
registers it with `jax.ffi.register_ffi_target` on first use. `jaxcb_ffi.noop` is the
fixed cost of one call (a benchmark helper, not in `__all__`). On a JAX without `jax.ffi`
the package imports, and calling it raises.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

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


def _find_libraries() -> None:
    """Point each module at its library in the first folder of the package that has it.
    A regular install has one folder, the modules and their libraries side by side; an
    editable install serves the modules from src/ and installs each environment's libraries
    (built against its own jaxlib) into its site-packages, the first folder of `__path__`."""
    modules: list[Any] = [m for n, m in sys.modules.items() if n.startswith(f"{__name__}.")]
    for module in (m for m in modules if hasattr(m, "_LIBRARY")):  # each module with a kernel
        found = [Path(folder, module._LIBRARY.name) for folder in __path__]
        module._LIBRARY = next((f for f in found if f.is_file()), module._LIBRARY)


_find_libraries()
