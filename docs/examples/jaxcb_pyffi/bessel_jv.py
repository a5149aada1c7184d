import jax
import jax.numpy as jnp

from jaxcb_pyffi import bessel_jv

z = jnp.array([0.5, 1.0, 2.0])
print("J1(z):  ", jax.jit(bessel_jv)(1, z))
print("J1'(z): ", jax.vmap(jax.grad(bessel_jv, argnums=1), in_axes=(None, 0))(1, z))
print("J1''(2):", jax.hessian(bessel_jv, argnums=1)(1, 2.0))
