import jax
import jax.numpy as jnp

from jaxcb_debug import cubic_root


def report(name, values):
    print(f"host saw {name}: out = {values['out']}")


a, b = jnp.array([1.0, 2.0]), jnp.array([2.0, 3.0])
out = jax.jit(lambda a, b: cubic_root(a, b, report=report))(a, b)
jax.effects_barrier()
print("root:", out)
