import jax
import jax.numpy as jnp

from jaxcb_debug import bessel_jv


def report(name, values):
    print(f"host saw {name}: out = {values['out']}")


z = jnp.array([0.5, 1.0, 2.0])
out = jax.jit(lambda z: bessel_jv(1, z, report=report))(z)
jax.effects_barrier()
print("J1(z):", out)
