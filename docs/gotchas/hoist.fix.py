# Instead: when the host must run at every step, use io_callback: an effect is not
# moved out of the loop.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

calls = []


def host(x):
    calls.append(1)
    return np.asarray(x)


@jax.jit
def f(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return lax.fori_loop(0, 5, lambda i, acc: acc + io_callback(host, spec, x), x)


jax.block_until_ready(f(jnp.ones(3)))
jax.effects_barrier()
print("steps:", 5)
print("host calls:", len(calls))
