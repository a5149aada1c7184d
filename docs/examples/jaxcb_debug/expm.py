import jax
import jax.numpy as jnp

from jaxcb_debug import expm


def report(name, values):
    print(f"host saw {name}: out[0] = {values['out'][0]}")


a = jnp.array([[0.0, 1.0], [-1.0, 0.0]])
g = jax.grad(lambda a: jnp.trace(expm(a, report=report)))(a)  # native rule: grad works
jax.effects_barrier()
print("d trace(expm(a)) / da:\n", g)
