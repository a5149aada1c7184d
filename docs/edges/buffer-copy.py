# A buffer_callback whose host function copies its input buffer with np.array, and one that
# copies it with np.asarray(buffer).copy().
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import buffer_callback


def copy_with_array(ctx, out, x):
    np.asarray(out)[...] = np.array(x)


def copy_with_asarray(ctx, out, x):
    np.asarray(out)[...] = np.asarray(x).copy()


x = jnp.arange(3.0, dtype=jnp.float32)
for name, host in (("np array", copy_with_array), ("np asarray copy", copy_with_asarray)):
    f = buffer_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype))
    try:
        out = jax.block_until_ready(jax.jit(f)(x))
        print(f"{name}:", "works", np.asarray(out).tolist())
    except Exception as e:
        print(f"{name}:", type(e).__name__)
        print(f"{name} message:", str(e).strip().splitlines()[-1][:160])
