# A pure_callback under jit, on an input sharded four ways.
# The callback is not partitioned: the host runs once, on the whole gathered array.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # four CPU devices, before any computation
mesh = Mesh(np.array(jax.devices()[:4]), ("i",))
x = jax.device_put(jnp.arange(8.0, dtype=jnp.float32), NamedSharding(mesh, P("i")))
shapes = []


def host(x):
    shapes.append(x.shape)
    return np.asarray(x) * 2


@jax.jit
def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


jax.block_until_ready(f(x))
print("shards:", len(x.addressable_shards))
print("host calls:", len(shapes))
print("shape seen:", shapes[0])
