# Instead: give the callback a value that changes at every step (here the step index,
# scanned over as xs), so the differentiated loop cannot move it out.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

calls = []


def host(k):
    calls.append(int(k))
    return np.float32(1.0)


def step(c, k):
    y = io_callback(host, jax.ShapeDtypeStruct((), jnp.float32), k)  # the step index
    return c * 1.5, y


def loss(c0):
    c, ys = lax.scan(step, c0, jnp.arange(5))
    return c, ys


jax.block_until_ready(jax.jit(loss)(1.0))
jax.effects_barrier()
print("steps:", 5)
print("host calls jit:", len(calls))
calls.clear()
jax.block_until_ready(jax.grad(lambda c0: loss(c0)[0])(1.0))
jax.effects_barrier()
print("host calls grad:", len(calls))
