# jax.vmap of an unordered io_callback: the host runs once per batch member.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

calls = []


def host(x):
    calls.append(np.shape(x))
    return np.asarray(x)


def one(x):
    return io_callback(host, jax.ShapeDtypeStruct((3,), jnp.float32), x)


xs = jnp.ones((4, 3))
jax.block_until_ready(jax.jit(jax.vmap(one))(xs))
jax.effects_barrier()
print("batch:", xs.shape[0])
print("host calls:", len(calls))
print("shape seen:", calls[0])
