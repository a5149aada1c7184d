# What the host function of a pure_callback receives, printed as module.TypeName.
# It is a jax.Array, not a NumPy array: NumPy-only methods and attributes are missing.
import jax
import jax.numpy as jnp
import numpy as np

seen = []


def host(x):
    seen.append(type(x).__module__.split(".")[0] + "." + type(x).__name__)
    return np.asarray(x)


f = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))
jax.block_until_ready(f(jnp.ones(3)))
print("type:", seen[0])
