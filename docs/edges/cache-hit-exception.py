# A pure_callback whose host function raises: the error of the first call, which compiles,
# against that of a second call, which reuses the compiled program.
import jax
import jax.numpy as jnp


def host(x):
    raise ValueError("bad value")


f = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct((), jnp.float32), x))
errors = []
for x in (1.0, 2.0):  # the second call hits the compilation cache
    try:
        jax.block_until_ready(f(x))
        errors.append((None, None))
    except Exception as e:
        errors.append((type(e).__name__, str(e).splitlines()[0]))
print("first call:", errors[0][0])
print("cached call:", errors[1][0])
print("same type:", errors[0][0] == errors[1][0])
print("same first line:", errors[0][1] == errors[1][1])
