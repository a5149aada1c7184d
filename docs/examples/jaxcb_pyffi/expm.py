import jax
import jax.numpy as jnp

from jaxcb_pyffi import expm

a = jnp.array([[0.0, 1.0], [-1.0, 0.0]])  # expm(a) is a rotation by 1 radian
print("expm(a):\n", jax.jit(expm)(a))
print("d trace(expm(a)) / da:\n", jax.grad(lambda a: jnp.trace(expm(a)))(a))
