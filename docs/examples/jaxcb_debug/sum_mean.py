import jax
import jax.numpy as jnp

from jaxcb_debug import sum_mean


def report(name, values):
    print(f"host saw {name}: sum = {values['sum']}, mean = {values['mean']}")


x = jnp.arange(1.0, 5.0)
out = jax.jit(lambda x: sum_mean(x, report=report))(x)
jax.effects_barrier()
print("result:", out)
