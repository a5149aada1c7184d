# Instead: wrap the call in jax.shard_map, so the host runs once per shard, on that
# device's block.
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


def per_shard(block):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(block.shape, block.dtype), block)


f = jax.jit(jax.shard_map(per_shard, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
y = jax.block_until_ready(f(x))
print("shards:", len(x.addressable_shards))
print("host calls:", len(shapes))
print("shape seen:", shapes[0])
print("result:", y.tolist())
