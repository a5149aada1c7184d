# %% [markdown]
# # Lesson 0 · Why leave the device?
#
# Shows what `jax.jit` hands your Python code while it traces (a tracer, not numbers), why a
# NumPy function fails on it, and that the `jax.numpy` version works. The explanations are on
# the jaxcb site's page for this lesson.

# %% tags=["tracer"]
import jax
import jax.numpy as jnp
import numpy as np

print("devices:", jax.devices())


@jax.jit
def double(x):
    print("  inside double, x is", x)  # runs while JAX traces, not when it computes
    return 2 * x


print("call 1:", double(jnp.array([1.0, 2.0, 3.0])))
print("call 2:", double(jnp.array([4.0, 5.0, 6.0])))  # same shape: no new trace
print("call 3:", double(jnp.array([1.0, 2.0])))  # new shape: traced again


# %% tags=["trap"]
@jax.jit
def numpy_sin(x):
    return np.sin(x)  # NumPy wants numbers; during the trace x has none


try:
    numpy_sin(jnp.array([0.0, 1.0, 2.0]))
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")


# %% tags=["fix"]
@jax.jit
def jax_sin(x):
    return jnp.sin(x)  # jax.numpy records the operation instead


x = jnp.array([0.0, 1.0, 2.0])
print("jax_sin:", jax_sin(x))
print("what the trace recorded:", jax.make_jaxpr(jnp.sin)(x))


# %% tags=["exercise"]
# Which of these three functions fail under jax.jit? Decide before you run the next step.
def line_a(x):
    return x * x.shape[0]  # uses the shape of x


def line_b(x):
    return np.exp(x)  # a NumPy function on x


def line_c(x):
    return x if x.sum() > 0 else -x  # a Python `if` on a value of x


# %% tags=["solution"]
for f in [line_a, line_b, line_c]:
    try:
        print(f"{f.__name__}: works, {jax.jit(f)(jnp.array([1.0, 2.0]))}")
    except Exception as e:
        print(f"{f.__name__}: fails, {type(e).__name__}: {str(e).splitlines()[0]}")
