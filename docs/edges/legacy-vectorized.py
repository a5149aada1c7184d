# jax.vmap of a pure_callback with vmap_method="legacy_vectorized": how many times the
# host function runs, and the shape it gets.
import re

import jax
import jax.numpy as jnp
import numpy as np

shapes = []


def host(x):
    shapes.append(np.shape(x))
    return np.sin(x)


def f(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host, spec, x, vmap_method="legacy_vectorized")


error = line = None
try:
    jax.block_until_ready(jax.vmap(f)(jnp.ones((4, 3), jnp.float32)))
except Exception as e:
    error = type(e).__name__
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", str(e).strip().splitlines()[0])[:120]
print("host calls:", len(shapes))
print("host shape:", shapes[0] if shapes else None)
print("error:", error)
print("error line:", line)
