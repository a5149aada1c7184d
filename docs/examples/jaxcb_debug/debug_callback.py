import jax
import jax.numpy as jnp
import numpy as np


def show(x):  # on the host; returns nothing to the computation
    print("host saw", np.asarray(x))


@jax.jit
def f(x):
    y = jnp.sin(x) * 2.0 + 1
    jax.debug.callback(show, y)  # an observer: grad and vmap trace through it
    return y


print("result:", f(jnp.linspace(0.0, 1.5, 4)))
g = jax.grad(lambda x: f(x).sum())(jnp.zeros(2))  # the host sees the forward pass
jax.effects_barrier()
print("grad:", g)
