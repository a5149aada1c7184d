"""Log every step of a `lax.scan` from C++: `jax.ffi.ffi_call` with `has_side_effect=True`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based) the C++ handler
(`log_steps.cc`) writes one line to the process's standard error, `step k (shape): values`,
each value with the digits that read back to it exactly (9 for float32, 17 for float64).

Contract:

- **Every step, once, in order.** The call has no result; `has_side_effect=True` tells
  JAX and XLA that it is there for its effect, so under `jax.jit` it is kept even when the
  loop's result is unused. Each step's state depends on the step before, so the lines
  arrive in step order.
  <!-- jaxcb:expect ffi_call log_steps jit_unused|scan effects.verdict=exact -->
- **Batching.** `vmap_method="sequential"`: under `vmap` the handler runs once per batch
  element and step, and each line holds one element's state.
- **Derivatives.** The state reaches the logger through `lax.stop_gradient`: the log takes
  no part in the derivative, so `grad` works. What it logs depends on the JAX version: on
  0.12.0.1 the forward pass, once, also under `jax.checkpoint`; on 0.10.2 nothing under
  `grad` (forward mode, `jax.jvp`, logs the forward pass), and `jax.checkpoint` raises
  `NotImplementedError`. Called inside a loop that `grad` differentiates, steps can be
  lost. For a log that must arrive under `grad` on every version, use
  `jaxcb_debug.log_steps`.
  <!-- jaxcb:expect ffi_call log_steps grad|checkpoint_grad effects.verdict=exact jax=0.12.0.1 -->
  <!-- jaxcb:expect ffi_call log_steps grad effects.verdict=none jax=0.10.2 -->
  <!-- jaxcb:expect ffi_call log_steps checkpoint_grad status=error error_type=NotImplementedError jax=0.10.2 -->
- **One device.** XLA cannot partition a side-effecting call: `x0` sharded over several
  devices raises `ValueError`, eagerly and under `jax.jit` when its traced type names the
  mesh (an `x0` put there with `jax.device_put`). Where the type names none (a NumPy `x0`
  placed by `jit`'s `in_shardings`), XLA refuses the sharded program itself
  (`JaxRuntimeError`, "Side-effect HLO must have sharding"). Under `shard_map` each device
  logs its own shard.
  <!-- jaxcb:expect ffi_call log_steps sharded_jit status=error error_type=ValueError -->
- **Types.** The handler writes float32 and float64 states; float16 and bfloat16 states are
  converted to float32 for the log (the loop itself keeps the dtype of `x0`).
- **Compiled once.** The loop is one module-level `jax.jit` with `n` static: repeated
  eager calls with the same `n` (and shape and dtype) reuse the compiled loop.
  `inline=True` traces a call inside another `jax.jit` into it, as a plain function would be.
- **Counts.** `n` is a Python int below `2**31`: the step counter is int32.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import math
import re
import threading
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

__all__ = ["HANDLERS", "TARGET", "log_steps"]


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"log_steps: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"log_steps: {name} must be an array of numbers, got {got}") from None


def _checked(x0: ArrayLike, n: object) -> jax.Array:
    """`x0` floating on one device, `n` a step count."""
    x0 = _array("x0", x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"log_steps: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"log_steps: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"log_steps: n must be >= 0, got {n}")
    if n >= 2**31:
        raise ValueError(f"log_steps: n must be < 2**31 (steps are counted in int32), got {n}")
    if not isinstance(x0, jax.core.Tracer) and len(x0.devices()) > 1:  # before XLA says it worse
        raise ValueError(
            "log_steps: x0 must be on one device (XLA cannot partition a side-effecting FFI "
            f"call), got x0 on {len(x0.devices())} devices"
        )
    typeof = getattr(jax, "typeof", None)  # under jit: the mesh x0's type carries, if any
    mesh = getattr(getattr(typeof(x0), "sharding", None), "mesh", None) if typeof else None
    manual = getattr(mesh, "manual_axes", ())  # shard_map, pmap: one call per device, fine
    shape = dict(getattr(mesh, "shape", {}))
    split = math.prod(size for axis, size in shape.items() if axis not in manual)
    if isinstance(x0, jax.core.Tracer) and split > 1:
        raise ValueError(
            "log_steps: x0 must be on one device (XLA cannot partition a side-effecting FFI "
            f"call), got x0 traced on a mesh of {split} devices"
        )
    return x0


# --8<-- [start:register]
TARGET = "jaxcb_log_step"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbLogStep"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
_LIBRARY = Path(__file__).with_name("liblog_steps.so")  # CMakeLists.txt builds it here
_BUILD = "cmake -S . -B build -DPython_EXECUTABLE=$(which python) && cmake --build build"
_lock = threading.Lock()
_registered = False


def _register() -> None:
    """Load the handlers with ctypes and register them with XLA, once per process."""
    global _registered
    with _lock:  # two threads tracing their first call at once register once
        if _registered:
            return
        if not _LIBRARY.is_file():
            raise RuntimeError(
                f"log_steps: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"log_steps.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"log_steps: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
                f"{built}, newer than the running jaxlib {running}: rebuild it with {_BUILD}"
            )
        for target, symbol in HANDLERS.items():
            capsule = jax.ffi.pycapsule(getattr(lib, symbol))
            jax.ffi.register_ffi_target(target, capsule, platform="cpu")
        _registered = True


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:4])


# --8<-- [end:register]


# --8<-- [start:pattern]
def _log(k: jax.Array, x: jax.Array) -> None:
    """One line on standard error, written by the C++ handler; nothing comes back."""
    x = lax.stop_gradient(x.astype(jnp.promote_types(x.dtype, jnp.float32)))
    jax.ffi.ffi_call(TARGET, (), has_side_effect=True, vmap_method="sequential")(k, x)


def _loop(x0: jax.Array, *, n: int) -> jax.Array:
    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        _log(k, x)
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(_loop, inline=True, static_argnames=("n",))


def log_steps(x0: ArrayLike, n: int) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`; a C++ handler logs each step to standard error.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int in `[0, 2**31)`.

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array, or `n` is not an int.
        ValueError: `n` is negative or not below `2**31`, or `x0` is sharded over several
            devices.
    """
    x0 = _checked(x0, n)
    _register()  # once per process, on first use
    return _compiled_loop(x0, n=n)


# --8<-- [end:pattern]
