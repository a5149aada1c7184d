import jax
import jax.numpy as jnp

import jaxcb_native
from jaxcb_compute_on import sin_scale

x = jnp.linspace(0.0, 1.5, 4)
print("on the host:", jax.jit(sin_scale)(x, 2.0))
same = jnp.allclose(sin_scale(x, 2.0), jaxcb_native.sin_scale(x, 2.0))
print("same as on the device:", bool(same))
print("grad:", jax.grad(lambda x: sin_scale(x, 2.0).sum())(x))
