# On JAX 0.4.30: the removed forms, as the two source texts wrote them. Do not copy.
import jax
import jax.numpy as jnp

from jaxcb_legacy.expm import expm_call

a = jnp.array([[0.0, 1.0], [-1.0, 0.0]])
print("host_callback.call:\n", jax.jit(expm_call)(a))
