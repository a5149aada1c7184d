# %% [markdown]
# # Lesson 6 · The hot path: measure, then buffer_callback
#
# This notebook times a `pure_callback` against the same computation in `jax.numpy`, then
# writes the result straight into XLA's output buffer with `buffer_callback`. The explanations
# are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import timeit
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import buffer_callback

np.set_printoptions(precision=4, suppress=True)
SIZES = [1, 1_000, 100_000, 1_000_000]


def seconds_per_call(f, x):
    """Best of 5 timed runs (timeit style), after one call that compiles and warms up."""
    f(x).block_until_ready()
    number = 100 if x.size <= 1_000 else 5
    runs = timeit.repeat(lambda: f(x).block_until_ready(), number=number, repeat=5)
    return min(runs) / number


def show(name, f):
    for n in SIZES:
        x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
        t = seconds_per_call(f, x)
        per_element = f", {t / n * 1e9:7.2f} ns per element" if n > 1 else ""
        print(f"{name:15} n = {n:>7}: {t * 1e6:8.1f} µs per call{per_element}")


# %% tags=["measure"]
def sin_host(x):
    return np.sin(np.asarray(x))


@jax.jit
def sin_pure(x):
    return jax.pure_callback(sin_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


show("pure_callback", sin_pure)
show("jnp", jax.jit(jnp.sin))

# %% tags=["copies"]
seen = {}


def sin_host_watched(x):
    x_np = np.asarray(x)
    y = np.sin(x_np)
    seen.update(type=type(x).__name__, writeable=x_np.flags.writeable, address=y.ctypes.data)
    return y


x = jnp.linspace(0.0, 1.0, 1_000, dtype=jnp.float32)
y = jax.jit(
    lambda x: jax.pure_callback(sin_host_watched, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
)(x).block_until_ready()
print(f"the host got: {seen['type']}, writeable: {seen['writeable']}")
print("result uses the memory the host returned:", y.unsafe_buffer_pointer() == seen["address"])


# %% tags=["buffer"]
def sin_into(ctx, out, x):
    out_np = np.asarray(out)  # a view of XLA's output buffer: no copy
    written = np.sin(np.asarray(x), out=out_np)
    seen.update(
        type=type(out).__name__,
        owns_data=out_np.flags.owndata,
        writeable=out_np.flags.writeable,
        same=written is out_np,
        address=out_np.ctypes.data,
    )


@jax.jit
def sin_buffer(x):
    return buffer_callback(sin_into, jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


y = sin_buffer(x).block_until_ready()
print(f"the host got: {seen['type']}")
print(f"owns its data: {seen['owns_data']}, writeable: {seen['writeable']}")
print("np.sin(..., out=out) wrote into out:", seen["same"])
print("result uses the memory the host wrote:", y.unsafe_buffer_pointer() == seen["address"])
print("matches jnp.sin:", bool(jnp.allclose(y, jnp.sin(x), atol=1e-6)))

# %% tags=["buffer_cost"]
show("buffer_callback", sin_buffer)


# %% tags=["trap"]
def sin_copied(ctx, out, x):
    y = np.sin(np.asarray(x))  # a new array...
    np.asarray(out)[...] = y  # ...copied into the output
    seen.update(shares=np.shares_memory(y, np.asarray(out)), nbytes=y.nbytes)


def sin_returned(ctx, out, x):
    return np.sin(np.asarray(x))  # the pure_callback habit


big = jnp.linspace(0.0, 1.0, 1_000_000, dtype=jnp.float32)
out_type = jax.ShapeDtypeStruct(big.shape, big.dtype)
copied = jax.jit(buffer_callback(sin_copied, out_type))
copied(big).block_until_ready()
print("new array shares memory with out:", seen["shares"], f"({seen['nbytes']} bytes)")
print(f"copied:  {seconds_per_call(copied, big) * 1e3:.2f} ms per call")
try:
    jax.jit(buffer_callback(sin_returned, out_type))(big).block_until_ready()
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[-1]}")

# %% tags=["fix"]
print(f"in place: {seconds_per_call(sin_buffer, big) * 1e3:.2f} ms per call")


# %% tags=["inputs"]
def sin_into_input(ctx, out, x):
    x_np = np.asarray(x)
    seen["writeable"] = x_np.flags.writeable
    np.sin(x_np, out=x_np)  # writes into the input buffer
    np.asarray(out)[...] = x_np


x = jnp.arange(4, dtype=jnp.float32)
wrong = jax.jit(buffer_callback(sin_into_input, jax.ShapeDtypeStruct(x.shape, x.dtype)))
print("x before:", x)
wrong(x).block_until_ready()
print("the input was writeable on the host:", seen["writeable"])
print("x after: ", x)


# %% tags=["alias"]
def sin_in_place(ctx, out, x):
    out_np = np.asarray(out)  # starts with the values of x
    seen["shares"] = np.shares_memory(out_np, np.asarray(x))
    np.sin(out_np, out=out_np)


x = jnp.arange(4, dtype=jnp.float32)
right = jax.jit(
    buffer_callback(
        sin_in_place, jax.ShapeDtypeStruct(x.shape, x.dtype), input_output_aliases={0: 0}
    )
)
y = right(x).block_until_ready()
print("out and x are one buffer on the host:", seen["shares"])
print("x after:", x)
print("y:      ", y)

# %% tags=["solution"]
shapes = []


def sin_into_seen(ctx, out, x):
    shapes.append(np.asarray(x).shape)
    np.sin(np.asarray(x), out=np.asarray(out))


def sin_batched(x, method):
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return buffer_callback(sin_into_seen, out_type, vmap_method=method)(x)


batch = jnp.ones((3, 4), dtype=jnp.float32)
for method in ["sequential", "broadcast_all"]:
    shapes.clear()
    y = jax.jit(jax.vmap(partial(sin_batched, method=method)))(batch).block_until_ready()
    print(f"{method:13}: result {y.shape}, the host saw {shapes}")
