import jax.numpy as jnp

from jaxcb_colocated import expm

generator = jnp.array([[0.0, -0.5], [0.5, 0.0]])  # expm: a rotation by half a radian
rotation = expm(generator)
print("expm:\n", rotation)
print("orthogonal:", bool(jnp.allclose(rotation @ rotation.T, jnp.eye(2), atol=1e-6)))
