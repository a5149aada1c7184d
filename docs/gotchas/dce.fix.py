# Instead: a host call made for its effect goes through io_callback, which JAX keeps
# even when nothing uses its result.
import jax
import jax.numpy as jnp
from jax.experimental import io_callback

calls = []


def host(x):
    calls.append(1)


@jax.jit
def f(x):
    io_callback(host, None, x)  # an effect: not dead code
    return x + 1


jax.block_until_ready(f(jnp.ones(3)))
jax.effects_barrier()
print("host calls:", len(calls))
