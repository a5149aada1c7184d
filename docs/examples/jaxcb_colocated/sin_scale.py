import jax
import jax.numpy as jnp

import jaxcb_native
from jaxcb_colocated import sin_scale

x = jnp.linspace(0.0, 1.5, 4)
print("next to the devices:", sin_scale(x, 2.0))  # called as is: not under jit
same = jnp.allclose(sin_scale(x, 2.0), jaxcb_native.sin_scale(x, 2.0))
print("same as on the device:", bool(same))
try:
    jax.jit(sin_scale)(x, 2.0)
except TypeError as e:
    print("under jit:", e)
