import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

written = []


def save(k, x):  # a side effect on the host: io_callback keeps the call (nothing uses its result)
    written.append((int(k), np.asarray(x).round(3).tolist()))


def step(x, k):
    x = 0.5 * x + 1
    io_callback(save, None, k, x, ordered=True)  # result None: nothing comes back
    return x, None


@jax.jit
def run(x0):
    x, _ = jax.lax.scan(step, x0, jnp.arange(1, 4))
    return x


print("final state:", run(jnp.zeros(2)))
print("written:", written)
