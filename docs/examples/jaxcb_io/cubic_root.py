import jax
import jax.numpy as jnp

from jaxcb_io import cubic_root

a, b = jnp.array([1.0, 2.0]), jnp.array([2.0, 3.0])  # x**3 + a*x - b = 0 at x = 1
print("root:", jax.jit(cubic_root)(a, b))
print("vmap:", jax.vmap(cubic_root)(jnp.stack([a, a]), jnp.stack([b, 2 * b])))
