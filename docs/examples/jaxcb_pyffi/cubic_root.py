import jax
import jax.numpy as jnp

from jaxcb_pyffi import cubic_root

a, b = jnp.array([1.0, 2.0]), jnp.array([2.0, 3.0])  # x**3 + a*x - b = 0 at x = 1
print("root:   ", jax.jit(cubic_root)(a, b))
print("d x / d b:", jax.grad(lambda b: cubic_root(a, b).sum())(b))  # 1 / (3 x**2 + a)
