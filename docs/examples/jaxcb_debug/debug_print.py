import jax
import jax.numpy as jnp


def step(x, k):
    x = 0.5 * x + 1
    # a format string and the values as arguments, never an f-string (it would format tracers)
    jax.debug.print("step {k}: x = {x}", k=k, x=x, ordered=True)
    return x, None


x, _ = jax.jit(lambda x0: jax.lax.scan(step, x0, jnp.arange(1, 4)))(0.0)
jax.effects_barrier()  # printing is asynchronous: wait before the next line
print("final state:", x)
