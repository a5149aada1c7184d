# %% [markdown]
# # Lesson 7 · Your own XLA FFI handler
#
# This notebook builds a C++ handler (`sin_scale.cc`, with `CMakeLists.txt`, both next to
# it) into a shared library, registers it with JAX and calls it from jitted code. The
# explanations are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import ctypes
import subprocess
import sys
import timeit
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # float64 arrays exist (the exercise needs them)
np.set_printoptions(precision=4, suppress=True)

# %% tags=["build"]
configure = ["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"]
configure.append(f"-DPython_EXECUTABLE={sys.executable}")  # this Python's jaxlib headers
for command in [configure, ["cmake", "--build", "build"]]:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:  # the first line that names an error, then the whole log
        errors = [line for line in done.stderr.splitlines() if "Error" in line]
        raise RuntimeError("\n".join([*errors[:1], done.stderr, done.stdout]))
print("built:", sorted(p.name for p in Path("build").glob("*.so")))


# %% tags=["trap"]
def sin_scale(x, scale):
    out_type = jax.ShapeDtypeStruct(x.shape, jnp.float32)
    call = jax.ffi.ffi_call("sin_scale", out_type, vmap_method="broadcast_all")
    return call(x, scale=np.float32(scale))  # scale: an attribute, fixed when compiled


x = jnp.linspace(0.0, 3.0, 5, dtype=jnp.float32)
try:
    jax.jit(sin_scale, static_argnames="scale")(x, scale=2.0)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

# %% tags=["register"]
lib = ctypes.cdll.LoadLibrary("./build/libsin_scale.so")
jax.ffi.register_ffi_target("sin_scale", jax.ffi.pycapsule(lib.SinScale), platform="cpu")
lib.SinScaleCalls.restype = ctypes.c_int64  # the handler's own call counter
print("registered: sin_scale")

# %% tags=["call"]
y = jax.jit(sin_scale, static_argnames="scale")(x, scale=2.0)
print("x:        ", x)
print("handler:  ", y, y.dtype)
print("jnp:      ", jnp.sin(x) * 2.0 + 1.0)
print("handler calls:", lib.SinScaleCalls())

# %% tags=["vmap"]
batch = jnp.ones((3, 4), dtype=jnp.float32)
before = lib.SinScaleCalls()
y = jax.jit(jax.vmap(lambda row: sin_scale(row, scale=2.0)))(batch)
print("batch", batch.shape, "-> result", y.shape)
print("handler calls:", lib.SinScaleCalls() - before)

# %% tags=["errors"]
x64 = jnp.asarray(np.linspace(0.0, 3.0, 5))  # NumPy's default dtype: float64
before = lib.SinScaleCalls()
try:
    sin_scale(x64, scale=2.0)
except Exception as e:
    lines = str(e).splitlines()
    print(f"{type(e).__name__}: {lines[0]}")
    print("   ", lines[-1])
print("handler calls:", lib.SinScaleCalls() - before)

too_short = jax.ShapeDtypeStruct((3,), jnp.float32)  # x has 5 elements
before = lib.SinScaleCalls()
try:
    jax.ffi.ffi_call("sin_scale", too_short)(x, scale=np.float32(2.0))
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
print("handler calls:", lib.SinScaleCalls() - before)


# %% tags=["cost"]
def seconds_per_call(f, x):
    """Best of 5 timed runs (timeit style), after one call that compiles and warms up."""
    f(x).block_until_ready()
    number = 100 if x.size <= 1_000 else 5
    runs = timeit.repeat(lambda: f(x).block_until_ready(), number=number, repeat=5)
    return min(runs) / number


ways = {
    "FFI handler": jax.jit(lambda x: sin_scale(x, scale=2.0)),
    "jnp": jax.jit(lambda x: jnp.sin(x) * 2.0 + 1.0),
}
for name, f in ways.items():
    for n in [1, 1_000, 100_000, 1_000_000]:
        t = seconds_per_call(f, jnp.linspace(0.0, 1.0, n, dtype=jnp.float32))
        per_element = f", {t / n * 1e9:7.2f} ns per element" if n > 1 else ""
        print(f"{name:12} n = {n:>7}: {t * 1e6:8.1f} µs per call{per_element}")

# %% tags=["solution"]
jax.ffi.register_ffi_target("sin_scale_f64", jax.ffi.pycapsule(lib.SinScaleF64), platform="cpu")


def sin_scale_f64(x, scale):
    out_type = jax.ShapeDtypeStruct(x.shape, jnp.float64)
    call = jax.ffi.ffi_call("sin_scale_f64", out_type, vmap_method="broadcast_all")
    return call(x, scale=np.float64(scale))


y = jax.jit(sin_scale_f64, static_argnames="scale")(x64, scale=2.0)
print("handler:", y, y.dtype)
print("NumPy:  ", np.sin(np.asarray(x64)) * 2.0 + 1.0)
