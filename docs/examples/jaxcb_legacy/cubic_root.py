# On JAX 0.4.30: the removed forms, as the two source texts wrote them. Do not copy.
import jax
import jax.numpy as jnp

from jaxcb_legacy.cubic_root import cubic_root_call, cubic_root_sequential

a, b = jnp.array([1.0, 2.0]), jnp.array([2.0, 3.0])
print("host_callback.call:", jax.jit(cubic_root_call)(a, b))
print("old default, vmap: ", jax.vmap(cubic_root_sequential)(jnp.stack([a, a]), jnp.stack([b, b])))
