# An io_callback inside a jax.checkpoint-ed function, logging an argument that is not
# differentiated, under grad.
import re

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

seen = []


@jax.checkpoint
def f(x, k):
    io_callback(lambda k: seen.append(int(k)), None, k)  # logs k, not x
    return jnp.sin(x) * 2


error = line = None
try:
    jax.block_until_ready(jax.grad(f)(1.0, 7))
    jax.effects_barrier()
except Exception as e:
    error = type(e).__name__
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", str(e).strip().splitlines()[0])  # no addresses
print("host calls:", len(seen))
print("error:", error)
print("error line:", line)
