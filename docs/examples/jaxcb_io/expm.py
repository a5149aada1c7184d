import jax
import jax.numpy as jnp

from jaxcb_io import expm

a = jnp.array([[0.0, 1.0], [-1.0, 0.0]])  # expm(a) is a rotation by 1 radian
print("expm(a):\n", jax.jit(expm)(a))
print("a stack of two:", jax.vmap(expm)(jnp.stack([a, 2 * a])).shape)
