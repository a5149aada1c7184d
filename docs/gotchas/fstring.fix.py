# Instead: pass jax.debug.print a format string and the value; it formats them on the
# host, at every call, with the value.
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    jax.debug.print("x = {x}", x=x)
    return x


f(jnp.float32(2.0))
f(jnp.float32(3.0))
jax.effects_barrier()
