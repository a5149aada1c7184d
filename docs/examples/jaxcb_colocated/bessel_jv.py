import jax.numpy as jnp

from jaxcb_colocated import bessel_jv

z = jnp.linspace(0.5, 2.0, 4)
print("J_0(z):", bessel_jv(0, z))  # SciPy, run next to the devices of z
print("J_v(1) for v = 0..3:", bessel_jv(jnp.arange(4), 1.0))
