# jax.vmap of an io_callback, first unordered, then with ordered=True.
# An order over the members of a batch is not defined, so JAX refuses the ordered one.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def f(x, ordered):
    return io_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=ordered)


xs = jnp.ones((2, 3))
for name, ordered in (("unordered", False), ("ordered", True)):
    try:
        jax.block_until_ready(jax.vmap(partial(f, ordered=ordered))(xs))
        jax.effects_barrier()
        print(f"{name}:", "runs")
    except Exception as e:  # which error the caller sees is the lesson
        print(f"{name}:", type(e).__name__)
