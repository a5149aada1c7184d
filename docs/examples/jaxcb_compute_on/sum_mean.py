import jax
import jax.numpy as jnp

from jaxcb_compute_on import sum_mean

x = jnp.arange(1.0, 5.0)
total, mean = jax.jit(sum_mean)(x)  # both results are marked for the host
print("sum, mean:", total, mean)
print("rows:", jax.vmap(sum_mean)(jnp.stack([x, 2 * x])))
print("d mean / dx:", jax.grad(lambda x: sum_mean(x)[1])(x))
