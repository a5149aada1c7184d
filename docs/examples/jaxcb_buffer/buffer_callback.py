import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import buffer_callback


def host_sin_scale(ctx, out, x, y):
    # runs on the host during the call: write into XLA's own output buffer, return None
    o = np.asarray(out)  # a view of the output buffer: no copy back
    np.sin(np.asarray(x), out=o)
    o *= np.asarray(y)
    o += 1


def sin_scale(x, y):
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    call = buffer_callback(host_sin_scale, out_type, vmap_method="expand_dims")
    return call(x, jnp.reshape(y, (1,) * x.ndim))  # y: same rank as x, so it broadcasts


x = jnp.linspace(0.0, 1.5, 4)
print("jit: ", jax.jit(sin_scale)(x, jnp.float32(2.0)))
print("vmap:", jax.vmap(sin_scale, in_axes=(0, None))(jnp.stack([x, -x]), jnp.float32(2.0)))
