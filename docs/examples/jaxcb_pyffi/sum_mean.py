import jax
import jax.numpy as jnp

from jaxcb_pyffi import sum_mean

x = jnp.arange(1.0, 5.0)
print("jit: ", jax.jit(sum_mean)(x))
print("vmap:", jax.vmap(sum_mean)(jnp.stack([x, 2 * x])))
print("grad of the mean:", jax.grad(lambda x: sum_mean(x)[1])(x))
