# %% [markdown]
# # Lesson 2 · vmap and vmap_method
#
# Batches a `jax.pure_callback` with `jax.vmap` and counts how many times the host function
# runs for each `vmap_method`, and which shapes it receives. The explanations are on the jaxcb
# site's page for this lesson.

# %% tags=["setup"]
import functools

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special

seen = []  # one entry per host call: the shapes the host function received


def host_scale(x, w):
    seen.append(f"x{x.shape} w{w.shape}")
    return np.asarray(x) * np.asarray(w)


def scale(x, w, vmap_method):
    promised = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_scale, promised, x, w, vmap_method=vmap_method)


xs = jnp.arange(12.0).reshape(4, 3)  # a batch of 4 rows of 3
w = jnp.array([1.0, 10.0, 100.0])  # one weight row, the same for every row of the batch


def run(vmap_method):
    seen.clear()
    one_row = functools.partial(scale, vmap_method=vmap_method)
    batched = jax.jit(jax.vmap(one_row, in_axes=(0, None)))  # batch xs, not w
    ys = batched(xs, w).block_until_ready()
    print(f"{vmap_method}: host calls {len(seen)}, shapes {seen}")
    return ys


# %% tags=["sequential"]
expected = run("sequential")
print(expected)

# %% tags=["expand_dims"]
ys = run("expand_dims")
print("same result:", bool(jnp.array_equal(ys, expected)))

# %% tags=["broadcast_all"]
ys = run("broadcast_all")
print("same result:", bool(jnp.array_equal(ys, expected)))

# %% tags=["trap"]
try:
    run(None)  # no vmap_method
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")


# %% tags=["old"]
def scale_old(x, w):  # as older tutorials write it
    promised = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_scale, promised, x, w, vectorized=True)


for name, f in [("jit", jax.jit(scale_old)), ("vmap", jax.vmap(scale_old, in_axes=(0, None)))]:
    try:
        f(xs, w).block_until_ready()
        print(f"{name}: ran")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[-1]}")


# %% tags=["exercise"]
# Lesson 1's wrapper. Make jax.vmap(erfcx) work with ONE host call per batch.
def host_erfcx(x):
    return scipy.special.erfcx(np.asarray(x)).astype(x.dtype)


@jax.jit
def erfcx(x):
    return jax.pure_callback(host_erfcx, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


batch = jnp.array([[0.0, 1.0, 10.0], [0.5, 2.0, 30.0]])  # 2 rows of 3
try:
    jax.vmap(erfcx)(batch)
except Exception as e:
    print("as it is:", type(e).__name__)

# %% tags=["solution"]
erfcx_calls = []


def counted_host_erfcx(x):
    erfcx_calls.append(x.shape)
    return host_erfcx(x)  # lesson 1's host function, unchanged


@jax.jit
def erfcx(x):
    promised = jax.ShapeDtypeStruct(x.shape, x.dtype)
    # erfcx works elementwise on any shape, so the whole batch can go in one call
    return jax.pure_callback(counted_host_erfcx, promised, x, vmap_method="expand_dims")


ys = jax.vmap(erfcx)(batch)
print(f"host calls {len(erfcx_calls)}, shapes {erfcx_calls}")
print(ys)
print("matches SciPy:", np.allclose(ys, scipy.special.erfcx(np.asarray(batch))))
