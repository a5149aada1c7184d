# jax.linear_transpose of a function that is linear, but computed by an io_callback.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def f(t):
    spec = jax.ShapeDtypeStruct(t.shape, t.dtype)
    return io_callback(lambda t: 2 * np.asarray(t), spec, t)


x = jnp.ones(3, jnp.float32)
error = line = None
try:
    jax.block_until_ready(jax.linear_transpose(f, x)(x))
except Exception as e:
    error = type(e).__name__
    line = str(e).strip().splitlines()[0]
print("error:", error)
print("error line:", line)
