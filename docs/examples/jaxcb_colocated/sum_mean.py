import jax.numpy as jnp

from jaxcb_colocated import sum_mean

x = jnp.arange(1.0, 5.0)
total, mean = sum_mean(x)  # two jax.Arrays, back on the devices of x
print("sum, mean:", total, mean)
print("rows:", sum_mean(jnp.stack([x, 2 * x])))  # a batch: the last axis is reduced
