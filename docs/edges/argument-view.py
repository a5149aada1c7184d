# What np.asarray gives a host function under jit: a view of the argument's memory, or a
# copy? Two np.asarray of the same argument, their base, and (where the argument is a
# jax.Array) whether the view starts at the argument's own buffer.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

seen = {}


def look(name):
    def host(x):
        a, b = np.asarray(x), np.asarray(x)
        pointer = getattr(x, "unsafe_buffer_pointer", None)
        seen[name] = {
            "type": f"{type(x).__module__}.{type(x).__name__}",
            "two asarray share memory": np.shares_memory(a, b),
            "asarray has a base": a.base is not None,
            "asarray writeable": a.flags.writeable,
            "asarray at the argument memory": (
                None if pointer is None else a.__array_interface__["data"][0] == pointer()
            ),
        }
        return np.asarray(x)

    return host


def f(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    y = jax.pure_callback(look("pure_callback"), spec, x)
    y = io_callback(look("io_callback"), spec, y)
    jax.debug.callback(look("debug.callback"), y)
    return y


jax.block_until_ready(jax.jit(f)(jnp.arange(1024.0, dtype=jnp.float32)))
jax.effects_barrier()
for name in ("pure_callback", "io_callback", "debug.callback"):
    for fact, value in seen[name].items():
        print(f"{name.replace('.', ' ').replace('_', ' ')} {fact}:", value)
