import jax
import jax.numpy as jnp

from jaxcb_debug import sin_scale


def report(name, values):  # on the host: what the computation saw
    print(f"host saw {name}: out = {values['out']}")


x = jnp.linspace(0.0, 1.5, 4)
print("jit: ", jax.jit(lambda x: sin_scale(x, 2.0, report=report))(x))
g = jax.grad(lambda x: sin_scale(x, 2.0, report=report).sum())(x)  # host sees the forward pass
jax.effects_barrier()  # wait for every callback before printing more
print("grad:", g)
