import jax
import jax.numpy as jnp

from jaxcb_compute_on import cubic_root

a = jnp.array([1.0, 3.0, 0.5])
b = jnp.array([2.0, 4.0, 1.5])  # x = 1 solves x**3 + a*x - b = 0 for each pair
print("roots:", jax.jit(cubic_root)(a, b))
print("d root / d b:", jax.jacfwd(lambda b: cubic_root(a, b))(b).diagonal())
