# Under jit and vmap (vmap_method="expand_dims"), a host function returns one element too
# few on the last axis: the error the caller gets, and the last line of its message.
import jax
import jax.numpy as jnp
import numpy as np


def host(x):
    return np.sin(x)[..., :2]  # one element short on the last axis


def f(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host, spec, x, vmap_method="expand_dims")


error = last = None
try:
    jax.block_until_ready(jax.jit(jax.vmap(f))(jnp.ones((4, 3), jnp.float32)))
except Exception as e:
    error = type(e).__name__
    last = str(e).strip().splitlines()[-1][:120]  # the host-side error ends the message
print("error:", error)
print("last line:", last)
