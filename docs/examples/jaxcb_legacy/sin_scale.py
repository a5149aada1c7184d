# On JAX 0.4.30: the removed forms, as the two source texts wrote them. Do not copy.
import jax
import jax.numpy as jnp

from jaxcb_legacy.sin_scale import sin_scale_call, sin_scale_sequential, sin_scale_vectorized

x, ys = jnp.linspace(0.0, 1.5, 4), jnp.array([1.0, 2.0])
print("host_callback.call:", jax.jit(sin_scale_call)(x, 2.0))
print("old default, vmap: ", jax.vmap(sin_scale_sequential, in_axes=(None, 0))(x, ys))
try:  # vectorized=True hands the host y with the batch axis and x without one
    jax.vmap(sin_scale_vectorized, in_axes=(None, 0))(x, ys)
except Exception as e:
    print("vectorized=True, vmap:", str(e).strip().splitlines()[-1])  # the host's error
