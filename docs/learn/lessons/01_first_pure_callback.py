# %% [markdown]
# # Lesson 1 · A first pure_callback
#
# Calls NumPy and SciPy from jitted code with `jax.pure_callback`: the shape and dtype you
# promise, what the host function receives, and what happens when it returns another dtype.
# The explanations are on the jaxcb site's page for this lesson.

# %% tags=["program"]
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


def host_sin(x):
    # plain Python on the host: x holds numbers here
    print(f"  host got {type(x).__name__}, a jax.Array: {isinstance(x, jax.Array)}")
    print(f"  shape {x.shape}, dtype {x.dtype}, values {np.asarray(x)}")
    return np.sin(np.asarray(x))


@jax.jit
def sin_on_host(x):
    promised = jax.ShapeDtypeStruct(x.shape, x.dtype)  # the shape and dtype you will return
    return jax.pure_callback(host_sin, promised, x)


x = jnp.array([0.0, 0.5, 1.0])
y = sin_on_host(x)
print("result:", y, y.dtype)
print("same as jnp.sin:", bool(jnp.allclose(y, jnp.sin(x))))
print("result:", sin_on_host(2 * x))  # a second call: the host runs again

# %% tags=["convert"]
table_x = np.array([0.0, 1.0, 2.0])  # a lookup table in NumPy's default dtype, float64
table_y = np.array([0.0, 10.0, 5.0])


def host_lookup(x):
    y = np.interp(x, table_x, table_y)
    print("  host returns", y.dtype)
    return y


@jax.jit
def lookup(x):
    return jax.pure_callback(host_lookup, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


y = lookup(jnp.array([0.5, 1.5], dtype=jnp.float32))
print("promised float32, result", y.dtype, y)

# %% tags=["trap"]
jax.config.update("jax_enable_x64", True)  # 64-bit mode, as much scientific code runs

try:
    lookup(jnp.array([0.5, 1.5], dtype=jnp.float32)).block_until_ready()
except Exception as e:
    lines = str(e).splitlines()
    print(type(e).__name__)
    print("first line:", lines[0])
    print("last line:", lines[-1])


# %% tags=["fix"]
def host_lookup_fixed(x):
    y = np.interp(x, table_x, table_y)
    return y.astype(x.dtype)  # return exactly the dtype you promised


@jax.jit
def lookup_fixed(x):
    return jax.pure_callback(host_lookup_fixed, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


x32 = jnp.array([0.5, 1.5], dtype=jnp.float32)
y = lookup_fixed(x32)
print("64-bit mode on:", y.dtype, y)
jax.config.update("jax_enable_x64", False)  # back to the default
y = lookup_fixed(x32)
print("64-bit mode off:", y.dtype, y)

# %% tags=["exercise"]
# JAX has erfc but not erfcx(x) = exp(x**2) * erfc(x). Wrap scipy.special.erfcx so that a
# jitted function can call it. Here is what SciPy gives on the host:
x = jnp.array([0.0, 1.0, 10.0, 30.0])
print("SciPy erfcx:        ", scipy.special.erfcx(np.asarray(x)))
print("exp(x**2) * erfc(x):", jnp.exp(x**2) * jax.scipy.special.erfc(x))  # overflows


# %% tags=["solution"]
def host_erfcx(x):
    return scipy.special.erfcx(np.asarray(x)).astype(x.dtype)


@jax.jit
def erfcx(x):
    return jax.pure_callback(host_erfcx, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


y = erfcx(x)
print("erfcx under jit:", y, y.dtype)
print("matches SciPy:", np.allclose(y, scipy.special.erfcx(np.asarray(x))))
