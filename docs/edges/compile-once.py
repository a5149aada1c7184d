# A jitted function holding a pure_callback, called three times: JAX traces the Python
# function once, but the host function runs on every call.
import jax
import jax.numpy as jnp
import numpy as np

traces, calls = [], []


def host(x):
    calls.append(1)
    return np.sin(x)


@jax.jit
def f(x):
    traces.append(1)  # Python runs this only when JAX traces f
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


for _ in range(3):
    jax.block_until_ready(f(jnp.ones(3)))
print("calls:", 3)
print("traces:", len(traces))
print("host calls:", len(calls))
