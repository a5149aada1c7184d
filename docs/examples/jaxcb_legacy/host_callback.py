# On JAX 0.4.30: the removed jax.experimental.host_callback, next to what replaces it.
import jax
import jax.experimental.host_callback as hcb
import jax.numpy as jnp
import numpy as np


def tap(x, transforms):  # id_tap: an observer, like jax.debug.callback now
    print("tapped", x)


@jax.jit
def f(x):
    x = hcb.id_tap(tap, x)  # returns x; now jax.debug.callback or io_callback(ordered=True)
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return hcb.call(lambda x: np.sin(x).astype(x.dtype), x, result_shape=shape)  # now pure_callback


print("result:", f(jnp.linspace(0.0, 1.5, 4)))
hcb.barrier_wait()  # now jax.effects_barrier()
