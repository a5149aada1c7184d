import jax
import jax.numpy as jnp

from jaxcb_compute_on import bessel_jv

z = jnp.array([0.5, 1.0, 2.0])
orders = jnp.array([0, 1, 2])
print("J_v(z):", jax.jit(bessel_jv)(orders, z))
print("dJ_1/dz at 2:", jax.grad(bessel_jv, argnums=1)(1, 2.0))
