"""The fixed cost of `jax.ffi.ffi_call`: one call into a C++ handler that does no work (`_noop.cc`).

Contract:

- **Not a computation.** The result has the shape and dtype of `x`; its values are
  unspecified (the handler writes nothing). The benchmarks time it against a jitted
  native no-op to measure what one `ffi_call` costs by itself.
- **Pure, as declared.** `ffi_call` has no side effects here, so under `jax.jit` a call
  whose result is unused is removed.
- **Batching.** `vmap_method="broadcast_all"`: one handler call per batch.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import re
import threading
from pathlib import Path

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "noop"]

VMAP_METHOD = "broadcast_all"

TARGET = "jaxcb_noop"
HANDLERS = {TARGET: "JaxcbNoop"}
_LIBRARY = Path(__file__).with_name("lib_noop.so")  # the package's CMakeLists.txt builds it
_lock = threading.Lock()
_registered = False


def _register() -> None:
    """Load the handlers with ctypes and register them with XLA, once per process."""
    global _registered
    with _lock:  # two threads tracing their first call at once register once
        if _registered:
            return
        if not _LIBRARY.is_file():
            raise RuntimeError(f"noop: {_LIBRARY} is not built: reinstall jaxcb-ffi")
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"noop: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
                f"{built}, newer than the running jaxlib {running}: reinstall jaxcb-ffi"
            )
        for target, symbol in HANDLERS.items():
            capsule = jax.ffi.pycapsule(getattr(lib, symbol))
            jax.ffi.register_ffi_target(target, capsule, platform="cpu")
        _registered = True


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:4])


# --8<-- [start:pattern]
def noop(x: ArrayLike) -> jax.Array:
    """One `ffi_call` that does no work: an array of the shape and dtype of `x`."""
    x = jnp.asarray(x)
    _register()
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=VMAP_METHOD)(x)


# --8<-- [end:pattern]
