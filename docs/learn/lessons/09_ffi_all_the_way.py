# %% [markdown]
# # Lesson 9 · Your FFI handler, all the way
#
# This notebook builds the C++ handlers next to it (`dtypes.cc`, `attrs.cc`, `counted.cc`,
# `pool.cc`, with `CMakeLists.txt`) and the package `ffi_softplus/`, then takes a handler
# through dtypes, attributes, gradients, batching, threads, packaging and shards. The
# explanations are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import ctypes
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # before any computation: four CPU devices
jax.config.update("jax_enable_x64", True)  # float64 arrays exist
np.set_printoptions(precision=4, suppress=True)
print("JAX", jax.__version__, "| CPU devices:", len(jax.devices("cpu")))

# %% tags=["build"]
# The CMake that pip put beside this Python (pip install cmake), else the system's.
cmake = shutil.which("cmake", path=str(Path(sys.executable).parent)) or "cmake"


def build(folder, *more):
    """CMake's configure and build steps in `folder`, with this Python's jaxlib headers."""
    configure = [cmake, "-S", folder, "-B", f"{folder}/build", "-DCMAKE_BUILD_TYPE=Release"]
    configure.append(f"-DPython_EXECUTABLE={sys.executable}")
    for command in [configure, [cmake, "--build", f"{folder}/build"], *more]:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            errors = [line for line in (done.stderr + done.stdout).splitlines() if "rror" in line]
            raise RuntimeError("\n".join([*errors[:1], done.stderr + done.stdout]))


build(".")
lib = ctypes.cdll.LoadLibrary("./build/libhandlers.so")
for name in ["Scale", "Poly", "Affine", "Counted", "OneThread", "Pool"]:
    jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(getattr(lib, name)), platform="cpu")
print("built and registered: Scale, Poly, Affine, Counted, OneThread, Pool")
header = Path(jax.ffi.include_dir(), "xla", "ffi", "api", "ffi.h").read_text(encoding="utf-8")
names = ["AnyBuffer", "Dictionary", "DeviceOrdinal", "ThreadPool", "PlatformStream", "State"]
print("ffi.h declares:", [n for n in names if re.search(rf"^(class|struct) {n}\b", header, re.M)])


# %% tags=["dtypes"]
def scale(x, factor):  # the result has x's shape and dtype, whatever they are
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call("Scale", out, vmap_method="broadcast_all")(x, factor=float(factor))


for dtype in [jnp.float32, jnp.float64, jnp.int32, jnp.float16]:
    try:
        y = scale(jnp.arange(4, dtype=dtype), 2.5)
        print(f"{dtype.__name__:8} ->", y, y.dtype)
    except Exception as e:
        print(f"{dtype.__name__:8} -> {type(e).__name__}: {str(e).splitlines()[0]}")

# %% tags=["attrs"]
x = jnp.linspace(-1.0, 1.0, 5)
f64 = jax.ShapeDtypeStruct(x.shape, jnp.float64)
coeffs = np.array([1.0, 2.0, 3.0])  # 1 + 2x + 3x²: an array attribute
print("Poly:  ", jax.ffi.ffi_call("Poly", f64)(x, coeffs=coeffs))
print("NumPy: ", np.polynomial.polynomial.polyval(np.asarray(x), coeffs))
print("Affine:", jax.ffi.ffi_call("Affine", f64)(x, scale=2.0, shift=0.5))  # a dictionary
try:
    jax.ffi.ffi_call("Affine", f64)(x, scale=2.0)  # shift missing
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

# %% tags=["package"]
# What `pip install ./ffi_softplus` does, by hand: the same CMake, the library installed
# beside the package's __init__.py, in a folder put on sys.path.
shutil.copytree("ffi_softplus/src/ffi_softplus", "installed/ffi_softplus", dirs_exist_ok=True)
build("ffi_softplus", [cmake, "--install", "ffi_softplus/build", "--prefix", "installed"])
print("installed/ffi_softplus:", sorted(p.name for p in Path("installed/ffi_softplus").iterdir()))
sys.path.insert(0, "installed")
from ffi_softplus import softplus  # noqa: E402 (imported once it is built)

print("softplus:        ", softplus(x))
print("jax.nn.softplus: ", jax.nn.softplus(x))

# %% tags=["grad"]
from jax.test_util import check_grads  # noqa: E402


def loss(x):
    return jnp.sum(softplus(x) ** 2)


g = jax.grad(loss)(x)
eps = 1e-6
finite = [(loss(x.at[i].add(eps)) - loss(x.at[i].add(-eps))) / (2 * eps) for i in range(x.size)]
print("grad (backward handler):", g)
print("finite difference:      ", np.array(finite))
check_grads(loss, (x,), order=1, modes=["rev"])
print("check_grads, reverse mode: passed")
try:  # the default modes include forward mode (jvp)
    check_grads(loss, (x,), order=1)
except Exception as e:
    print(f"check_grads, default modes: {type(e).__name__}: {str(e).splitlines()[0]}")

# %% tags=["vmap"]
lib.CountedCalls.restype = lib.CountedElements.restype = ctypes.c_int64
lib.CountedCalls.argtypes = lib.CountedElements.argtypes = [ctypes.c_char_p, ctypes.c_int32]


def counted(x, tag, vmap_method="broadcast_all"):  # y = 2x, counted under `tag`
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call("Counted", out, vmap_method=vmap_method)(x, tag=tag)


def seen(tag, device=0):
    return lib.CountedCalls(tag.encode(), device), lib.CountedElements(tag.encode(), device)


batch = jnp.ones((3, 4), dtype=jnp.float32)
for method in ["sequential", "expand_dims", "broadcast_all"]:
    batched = jax.vmap(lambda row, m=method: counted(row, tag=m, vmap_method=m))
    jax.jit(batched)(batch).block_until_ready()
    calls, elements = seen(method)
    print(f"vmap_method={method!r:16} batch (3, 4): {calls} calls, {elements} elements")

# %% tags=["state"]
f = jax.jit(lambda x: counted(x, "threads"))
ones = jnp.ones(4, dtype=jnp.float32)
f(ones).block_until_ready()  # compiled once, before the threads start
before = seen("threads")[0]


def hundred_calls():
    for _ in range(100):
        f(ones).block_until_ready()


threads = [threading.Thread(target=hundred_calls) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("4 Python threads x 100 calls -> counted:", seen("threads")[0] - before)

# %% tags=["pool"]
lib.PoolThreads.restype = ctypes.c_int64
big = jnp.linspace(0.0, 1.0, 20_000)
out = jax.ShapeDtypeStruct(big.shape, jnp.float64)
one_thread = jax.jit(lambda x: jax.ffi.ffi_call("OneThread", out)(x))
pool = jax.jit(lambda x: jax.ffi.ffi_call("Pool", out)(x))
same = bool(jnp.array_equal(one_thread(big), pool(big)))
print("pool threads:", lib.PoolThreads(), "| same result as one thread:", same)

# %% tags=["trap"]
mesh = Mesh(np.array(jax.devices("cpu")), ("i",))
xs = jax.device_put(jnp.arange(8.0, dtype=jnp.float32), NamedSharding(mesh, P("i")))
print("x: 8 elements, 2 on each of 4 devices")
y = jax.jit(lambda x: counted(x, "jit"))(xs).block_until_ready()
print("jit:      ", [seen("jit", d) for d in range(4)], "(calls, elements) per device")
print("result:   ", y.sharding.spec)


# %% tags=["fix"]
def per_shard(block):  # one block of 2 elements, on its own device
    return counted(block, "shard_map")


y = jax.jit(jax.shard_map(per_shard, mesh=mesh, in_specs=P("i"), out_specs=P("i")))(xs)
y.block_until_ready()
print("shard_map:", [seen("shard_map", d) for d in range(4)], "(calls, elements) per device")
print("result:   ", y.sharding.spec, y)

# %% tags=["cuda"]
nvcc = shutil.which("nvcc")
print("nvcc:", "found" if nvcc else "not found", "| JAX's default backend:", jax.default_backend())
if nvcc and jax.default_backend() == "gpu":
    build("cuda")
    cuda = ctypes.cdll.LoadLibrary("./cuda/build/libsin_scale_cuda.so")
    capsule = jax.ffi.pycapsule(cuda.SinScaleCuda)
    jax.ffi.register_ffi_target("sin_scale_cuda", capsule, platform="CUDA")
    xg = jnp.linspace(0.0, 3.0, 5, dtype=jnp.float32)
    call = jax.ffi.ffi_call("sin_scale_cuda", jax.ShapeDtypeStruct(xg.shape, xg.dtype))
    print("GPU:", jax.jit(lambda x: call(x, scale=np.float32(2.0)))(xg))
    print("jnp:", jnp.sin(xg) * 2.0 + 1.0)
else:
    print("the CUDA handler was not built or run here: it needs nvcc and a GPU that JAX uses")

# %% tags=["solution"]
# d/dx of c0 + c1 x + c2 x² + ... is c1 + 2 c2 x + ...: Poly again, with other coefficients.


def poly(x, coeffs):
    return jax.ffi.ffi_call("Poly", jax.ShapeDtypeStruct(x.shape, x.dtype))(x, coeffs=coeffs)


def make_poly(coeffs):
    derivative = np.polynomial.polynomial.polyder(coeffs)

    @jax.custom_vjp
    def p(x):
        return poly(x, coeffs)

    p.defvjp(lambda x: (poly(x, coeffs), x), lambda x, dy: (dy * poly(x, derivative),))
    return p


p = make_poly(coeffs)
print("grad:     ", jax.grad(lambda x: p(x).sum())(x))
print("2 + 6x:   ", 2.0 + 6.0 * x)
check_grads(p, (x,), order=1, modes=["rev"])
print("check_grads, reverse mode: passed")
