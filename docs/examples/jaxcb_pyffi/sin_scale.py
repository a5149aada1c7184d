import jax
import jax.numpy as jnp

from jaxcb_pyffi import sin_scale

x = jnp.linspace(0.0, 1.5, 4)
print("jit: ", jax.jit(sin_scale)(x, 2.0))
print("vmap:", jax.vmap(sin_scale, in_axes=(None, 0))(x, jnp.array([1.0, 2.0])))
print("grad:", jax.grad(lambda x: sin_scale(x, 2.0).sum())(x))
