# A pure_callback whose result nothing uses, under jit.
# JAX treats the call as pure, so it is dead code: the host function never runs.
import jax
import jax.numpy as jnp
import numpy as np

calls = []


def host(x):
    calls.append(1)  # the side effect we count on
    return np.asarray(x)


@jax.jit
def f(x):
    jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # result unused
    return x + 1


jax.block_until_ready(f(jnp.ones(3)))
print("host calls:", len(calls))
