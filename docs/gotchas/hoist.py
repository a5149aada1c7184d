# A pure_callback on a value that does not change inside a 5-step fori_loop, under jit.
# To a pure computation, moving it out of the loop is allowed: the host may run once.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

calls = []


def host(x):
    calls.append(1)
    return np.asarray(x)


@jax.jit
def f(x):  # x does not change inside the loop
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return lax.fori_loop(0, 5, lambda i, acc: acc + jax.pure_callback(host, spec, x), x)


jax.block_until_ready(f(jnp.ones(3)))
print("steps:", 5)
print("host calls:", len(calls))
