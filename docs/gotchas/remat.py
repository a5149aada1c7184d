# A jax.debug.callback inside a jax.checkpoint-ed function, under grad.
# The backward pass recomputes the forward pass, and the callback runs again with it.
import jax
import jax.numpy as jnp

seen = []


@jax.checkpoint
def f(x):
    jax.debug.callback(lambda x: seen.append(1), x)  # written once
    return jnp.sin(x)


jax.grad(f)(1.0)
jax.effects_barrier()
print("calls written:", 1)
print("host calls:", len(seen))
