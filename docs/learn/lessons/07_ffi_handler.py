# %% [markdown]
# # Lesson 7 · Your own XLA FFI handler
#
# This notebook builds a C++ handler (`sin_scale.cc`, with `CMakeLists.txt`, both next to
# it) into a shared library, registers it with JAX and calls it from jitted code. The
# explanations are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import ctypes
import re
import shutil
import subprocess
import sys
import timeit
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # float64 arrays exist (the exercise needs them)
np.set_printoptions(precision=4, suppress=True)
print("JAX", jax.__version__)

# %% tags=["build"]
# The CMake that pip put beside this Python (pip install cmake), else the system's.
cmake = shutil.which("cmake", path=str(Path(sys.executable).parent)) or "cmake"


def build(folder):
    """The page's two commands in `folder`, with this Python; None, or the log if one failed."""
    configure = [cmake, "-S", folder, "-B", f"{folder}/build", "-DCMAKE_BUILD_TYPE=Release"]
    configure.append(f"-DPython_EXECUTABLE={sys.executable}")  # this Python's jaxlib headers
    for command in [configure, [cmake, "--build", f"{folder}/build"]]:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            return done.stderr + done.stdout
    return None


print(subprocess.run([cmake, "--version"], capture_output=True, text=True).stdout.split("\n")[0])
log = build(".")
if log is not None:  # the first line that names an error, then the whole log
    errors = [line for line in log.splitlines() if "Error" in line]
    raise RuntimeError("\n".join([*errors[:1], log]))
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

# %% tags=["limits"]
try:  # scale not static: under jit it is a tracer, and np.float32() needs a value
    jax.jit(sin_scale)(x, 2.0)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

try:  # JAX cannot look inside C++ for a derivative
    jax.grad(lambda x: sin_scale(x, scale=2.0).sum())(x)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

before = lib.SinScaleCalls()
unused = jax.jit(lambda x: (sin_scale(x, scale=2.0), jnp.cos(x))[1])  # the result is dropped
unused(x).block_until_ready()
print("result unused, handler calls:", lib.SinScaleCalls() - before)


def sin_scale_kept(x, scale):  # the same call, declared to have a side effect
    out_type = jax.ShapeDtypeStruct(x.shape, jnp.float32)
    call = jax.ffi.ffi_call(
        "sin_scale", out_type, vmap_method="broadcast_all", has_side_effect=True
    )
    return call(x, scale=np.float32(scale))


before = lib.SinScaleCalls()
kept = jax.jit(lambda x: (sin_scale_kept(x, scale=2.0), jnp.cos(x))[1])
kept(x).block_until_ready()
print("has_side_effect=True, handler calls:", lib.SinScaleCalls() - before)

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

# %% tags=["rebuild"]
# The exercise's way, in a folder of its own: the library built before sin_scale_f64.cc existed,
# loaded, then sin_scale_f64.cc added and the library rebuilt.
Path("first").mkdir(exist_ok=True)
for name in ["CMakeLists.txt", "sin_scale.cc"]:
    shutil.copy(name, "first")
assert build("first") is None
ctypes.cdll.LoadLibrary("./first/build/libsin_scale.so")
print("loaded first/build/libsin_scale.so")

# sin_scale.cc copied as the new file, its handler renamed but its counter kept
copy = Path("sin_scale.cc").read_text(encoding="utf-8")
copy = copy.replace("SinScaleImpl", "SinScaleF64Impl").replace("(SinScale,", "(SinScaleF64,")
Path("first/sin_scale_f64.cc").write_text(copy, encoding="utf-8")
log = build("first") or ""
print("counter copied:", re.search(r"multiple definition of [^;\s]+", log).group(0))

shutil.copy("sin_scale_f64.cc", "first")  # the solution: no counter
print("counter deleted:", "built" if build("first") is None else "failed")
try:  # the same path in the same Python: ctypes hands back the library it loaded first
    handler = ctypes.cdll.LoadLibrary("./first/build/libsin_scale.so").SinScaleF64
except AttributeError as e:
    print("same Python:", e)
look = "import ctypes; ctypes.cdll.LoadLibrary('./first/build/libsin_scale.so').SinScaleF64"
found = subprocess.run([sys.executable, "-c", look], capture_output=True, text=True)
print("new Python:", "SinScaleF64 found" if found.returncode == 0 else found.stderr)

# %% tags=["solution"]
jax.ffi.register_ffi_target("sin_scale_f64", jax.ffi.pycapsule(lib.SinScaleF64), platform="cpu")


def sin_scale_f64(x, scale):
    out_type = jax.ShapeDtypeStruct(x.shape, jnp.float64)
    call = jax.ffi.ffi_call("sin_scale_f64", out_type, vmap_method="broadcast_all")
    return call(x, scale=np.float64(scale))


y = jax.jit(sin_scale_f64, static_argnames="scale")(x64, scale=2.0)
print("handler:", y, y.dtype)
print("NumPy:  ", np.sin(np.asarray(x64)) * 2.0 + 1.0)
