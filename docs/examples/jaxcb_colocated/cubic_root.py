import jax.numpy as jnp

from jaxcb_colocated import cubic_root

a, b = jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 5.0, 10.0])
x = cubic_root(a, b)  # the root of x**3 + a*x - b, found by SciPy on the host
print("roots:", x)
print("residual:", x**3 + a * x - b)
