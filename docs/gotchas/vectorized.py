# pure_callback(..., vectorized=True), the old spelling, on current JAX.
# `vectorized` is no longer a parameter: JAX passes it on to the host function as a keyword.
import jax
import jax.numpy as jnp
import numpy as np


def host(x):
    return np.asarray(x) * 2


@jax.jit
def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vectorized=True)


try:
    print("result:", jax.block_until_ready(f(jnp.arange(3.0))).tolist())
except Exception as e:  # which error the caller sees is the lesson
    print("caller sees:", type(e).__name__)
    print("host raised:", str(e).strip().splitlines()[-1])
