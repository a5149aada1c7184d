# An io_callback with no arguments inside a 5-step lax.scan, under jit and under grad.
# Once the loop is differentiated, a call with no loop-varying input is moved out of it.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

calls = []


def host():
    calls.append(1)
    return np.float32(1.0)


def step(c, _):
    y = io_callback(host, jax.ShapeDtypeStruct((), jnp.float32))  # no arguments
    return c * 1.5, y


def loss(c0):
    c, ys = lax.scan(step, c0, None, length=5)
    return c, ys


jax.block_until_ready(jax.jit(loss)(1.0))
jax.effects_barrier()
print("steps:", 5)
print("host calls jit:", len(calls))
calls.clear()
jax.block_until_ready(jax.grad(lambda c0: loss(c0)[0])(1.0))
jax.effects_barrier()
print("host calls grad:", len(calls))
