"""Load the compiled handlers, `libjaxcb_ffi.so`, with `ctypes`, after checking that they fit.

Every pattern module registers its handlers through :func:`register` on first use: copy
this file with the module (and its `.cc` file) and the pattern keeps working. Its C++ side
is `_library.cc`.

Why a check: XLA refuses a handler built against *newer* FFI headers than its own ("the
handler's API version (0.5) is incompatible with the framework's API version (0.3)"), and
on the CPU backend it does so when the backend starts, so one misbuilt handler breaks every
JAX computation of the process. A library built against the headers of an older jaxlib is
accepted (XLA keeps the FFI ABI backward compatible), one from a newer jaxlib is refused
here, before anything is registered, with a message that says how to rebuild.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.metadata
import importlib.util
import re
import threading
from pathlib import Path

import jax

__all__ = ["LIBRARY", "check_headers", "load", "missing_ffi", "register"]

LIBRARY = "libjaxcb_ffi.so"

_lock = threading.Lock()
_registered: set[str] = set()


def missing_ffi() -> str | None:
    """Why this JAX cannot run the package (it lacks `jax.ffi`), or `None` when it can."""
    if importlib.util.find_spec("jax.ffi") is not None:
        return None
    return (
        f"jax.ffi is not in JAX {jax.__version__} "
        "(added in 0.4.32 as jax.extend.ffi, jax.ffi since 0.5.0)"
    )


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:4])


def _path() -> Path:
    """Where the build put the library: beside the package's files (any of its paths)."""
    spec = importlib.util.find_spec(__package__ or "jaxcb_ffi")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    for place in places:
        candidate = Path(place) / LIBRARY
        if candidate.is_file():
            return candidate
    raise RuntimeError(
        f"jaxcb_ffi: the compiled handlers ({LIBRARY}) are not installed (looked in "
        f"{', '.join(places) or 'nowhere'}). Installing jaxcb-ffi builds them with CMake and "
        "a C++17 compiler: reinstall it and read the build output."
    )


@functools.cache
def load() -> ctypes.CDLL:
    """The library, loaded once, after checking its headers against the running jaxlib.

    Raises:
        RuntimeError: this JAX has no `jax.ffi`, the library is not installed, or it was
            built against a newer jaxlib than the one running.
    """
    reason = missing_ffi()
    if reason is not None:
        raise RuntimeError(f"jaxcb_ffi: {reason}")
    lib = ctypes.CDLL(str(_path()))
    lib.JaxcbFfiJaxlibVersion.restype = ctypes.c_char_p
    check_headers(lib.JaxcbFfiJaxlibVersion().decode(), importlib.metadata.version("jaxlib"))
    return lib


def check_headers(built: str, running: str) -> None:
    """Raise `RuntimeError` if headers of jaxlib `built` cannot serve jaxlib `running`."""
    if _version(built) > _version(running):
        raise RuntimeError(
            f"jaxcb_ffi was built against the XLA FFI headers of jaxlib {built}, but jaxlib "
            f"{running} is running, and XLA refuses handlers built against newer headers "
            "than its own. Rebuild jaxcb-ffi against the installed jaxlib: see 'Building' in "
            "its README.md (uv: extra-build-dependencies with match-runtime; pip: "
            "--no-build-isolation)."
        )


def register(target: str, symbol: str) -> None:
    """Register the handler `symbol` of the library as the CPU FFI target `target`, once."""
    with _lock:  # two threads tracing their first call at once register it once
        if target in _registered:
            return
        handler = getattr(load(), symbol)
        jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(handler), platform="cpu")
        _registered.add(target)
