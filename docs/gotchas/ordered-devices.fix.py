# Instead: leave the callback unordered and pass it the step, so the host can put the
# records in order itself.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # four CPU devices, before any computation
mesh = Mesh(np.array(jax.devices()[:4]), ("i",))
x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))
records = []


def record(step, total):
    records.append((int(step), float(total)))


@jax.jit
def f(x):
    def body(step, x):
        jax.debug.callback(record, step, x.sum())  # unordered: the step says where it belongs
        return x * 2

    return jax.lax.fori_loop(0, 3, body, x)


jax.block_until_ready(f(x))
jax.effects_barrier()
print("devices:", len(jax.devices()))
print("records:", sorted(records))
