# A host function returning float64 where the program promised float32 (x64 off).
# JAX casts the result to float32 without an error or a warning: the host's digits are lost.
import warnings

import jax
import jax.numpy as jnp
import numpy as np

returned = []


def host(x):
    y = np.sin(np.asarray(x, np.float64))  # NumPy's default float64
    returned.append(y)
    return y


@jax.jit
def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, jnp.float32), x)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = jax.block_until_ready(f(jnp.ones(3, jnp.float32)))
print("x64:", jax.config.read("jax_enable_x64"))
print("host returned:", returned[0].dtype)
print("result:", y.dtype)
print("warnings:", len(caught))
print("host value:", float(returned[0][0]))
print("result value:", float(y[0]))
