import jax
import jax.numpy as jnp

from jaxcb_io import bessel_jv

z = jnp.array([0.5, 1.0, 2.0])
print("J1(z):", jax.jit(bessel_jv)(1, z))
print("vmap over the order:", jax.vmap(bessel_jv, in_axes=(0, None))(jnp.array([0, 1]), 1.0))
