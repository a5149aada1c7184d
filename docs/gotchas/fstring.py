# An f-string passed to jax.debug.print under jit, called with 2.0 and then 3.0.
# Python formats the f-string while jit traces the function, before there is a value:
# both calls print the tracer.
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    jax.debug.print(f"x = {x}")  # formatted once, at trace time
    return x


f(jnp.float32(2.0))
f(jnp.float32(3.0))
jax.effects_barrier()
