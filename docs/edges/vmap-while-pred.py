# A jax.debug.callback in the body of a while loop whose predicate is not batched, under vmap.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

seen = []


def f(x):
    def body(c):
        i, y = c
        jax.debug.callback(lambda i: seen.append(int(i)), i)
        return i + 1, y * 2

    return lax.while_loop(lambda c: c[0] < 3, body, (0, x))[1]  # the count is not batched


out = jax.vmap(f)(jnp.arange(4.0))
jax.effects_barrier()
print("batch:", 4)
print("steps:", 3)
print("host calls:", len(seen))
print("result ok:", bool((np.asarray(out) == np.arange(4.0) * 8).all()))
