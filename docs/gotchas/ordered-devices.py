# An ordered jax.debug.callback under jit, on an input sharded over four devices.
# ordered=True needs one order for the whole program; with four devices there is none.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # four CPU devices, before any computation
mesh = Mesh(np.array(jax.devices()[:4]), ("i",))
x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))


@partial(jax.jit, static_argnames="ordered")
def f(x, ordered):
    jax.debug.callback(lambda x: None, x, ordered=ordered)
    return x * 2


print("devices:", len(jax.devices()))
for name, ordered in (("unordered", False), ("ordered", True)):
    try:
        jax.block_until_ready(f(x, ordered))
        jax.effects_barrier()
        print(f"{name}:", "runs")
    except Exception as e:  # which error the caller sees is the lesson
        print(f"{name}:", type(e).__name__)
        print("message:", str(e).split(": [")[0])
