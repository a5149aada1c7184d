# An io_callback that logs the step index inside a differentiated lax.scan.
# The step index is not on the differentiated path; under grad the log stays empty.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import io_callback

logged = []


def step(c, k):
    io_callback(lambda k: logged.append(int(k)), None, k)  # logs the step, not c
    return c * 1.5, None


def loss(c0):
    c, _ = lax.scan(step, c0, jnp.arange(5))
    return c


print("steps:", 5)
jax.jit(loss)(1.0)
jax.effects_barrier()
print("logged jit:", len(logged))
logged.clear()
jax.grad(loss)(1.0)
jax.effects_barrier()
print("logged grad:", len(logged))
logged.clear()
jax.value_and_grad(loss)(1.0)
jax.effects_barrier()
print("logged value and grad:", len(logged))
