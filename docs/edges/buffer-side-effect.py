# A buffer_callback with no inputs and has_side_effect=True: called for its result, then
# inside a jitted function that never uses its result.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import buffer_callback

calls = []


def host(ctx, out):
    calls.append(1)
    np.asarray(out)[...] = 7.0


cb = buffer_callback(host, jax.ShapeDtypeStruct((2,), jnp.float32), has_side_effect=True)


@jax.jit
def unused():
    cb()  # result thrown away
    return jnp.zeros(())


result = error = line = None
try:
    result = np.asarray(jax.jit(cb)()).tolist()
except Exception as e:
    error = type(e).__name__
    line = str(e).strip().splitlines()[0]
jax.block_until_ready(unused())
jax.effects_barrier()
print("result:", result)
print("error:", error)
print("error line:", line)
print("host calls used then unused:", len(calls))
