# On JAX 0.4.30: the removed forms, as the two source texts wrote them. Do not copy.
import jax
import jax.numpy as jnp

from jaxcb_legacy.sum_mean import sum_mean_call, sum_mean_vectorized

x = jnp.arange(1.0, 5.0)
print("host_callback.call:   ", jax.jit(sum_mean_call)(x))
print("vectorized=True, vmap:", jax.vmap(sum_mean_vectorized)(jnp.stack([x, 2 * x])))
