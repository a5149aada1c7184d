# A buffer_callback that uses its input buffer as scratch space: the input says it is
# read-only, but np.asarray gives a writeable view of XLA's memory.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import buffer_callback

report = {}


def host(ctx, out, x):
    view = np.asarray(x)
    report["says writeable"] = x.writeable
    report["view writeable"] = view.flags.writeable
    view *= 2  # scratch work in the input's memory
    np.asarray(out)[...] = view + 1


f = jax.jit(buffer_callback(host, jax.ShapeDtypeStruct((3,), jnp.float32)))
x = jnp.arange(3.0, dtype=jnp.float32)
y = f(x)
jax.block_until_ready(y)
for name, value in report.items():
    print(f"{name}:", value)
print("result:", y)
print("caller input after:", x)  # a JAX array, supposedly immutable
print("same call again:", f(x))
