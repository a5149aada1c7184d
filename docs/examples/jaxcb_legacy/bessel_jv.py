# On JAX 0.4.30: the removed forms, as the two source texts wrote them. Do not copy.
import jax
import jax.numpy as jnp

from jaxcb_legacy.bessel_jv import bessel_jv_call, bessel_jv_vectorized

z = jnp.array([0.5, 1.0, 2.0])
print("host_callback.call:   ", jax.jit(bessel_jv_call)(1, z))
print("vectorized=True, vmap:", jax.vmap(bessel_jv_vectorized, in_axes=(None, 0))(1, z))
