# jax.vmap of a pure_callback that does not say how to batch it (no vmap_method).
# Current JAX no longer guesses: it raises.
import jax
import jax.numpy as jnp
import numpy as np


def f(x):
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


try:
    jax.block_until_ready(jax.vmap(f)(jnp.ones((2, 3))))
    print("vmap: runs")
except Exception as e:  # which error the caller sees is the lesson
    print("vmap:", type(e).__name__)
