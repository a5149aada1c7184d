# %% [markdown]
# # Lesson 8 · Across devices and processes
#
# Where a callback runs when the data is split: one gathered call under a sharded `jit`, one call
# per shard under `shard_map`, and which process prints in a 2-process job on this machine. The
# explanations are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import os
import socket
import subprocess
import sys
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # before any computation: four CPU devices
mesh = Mesh(np.array(jax.devices("cpu")), ("i",))
x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))
print("shards:", [s.data.tolist() for s in x.addressable_shards])

# %% tags=["gathered"]
seen = []


@jax.jit
def f(x):
    jax.debug.callback(lambda block: seen.append(block.shape), x)
    return x * 2


f(x).block_until_ready()
jax.effects_barrier()
print(f"sharded jit: host calls {len(seen)}, shapes {seen}")

# %% tags=["per_shard"]
seen = []


def per_device(block):
    jax.debug.callback(lambda b: seen.append(b.shape), block)
    return block * 2


g = jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
g(x).block_until_ready()
jax.effects_barrier()
print(f"shard_map: host calls {len(seen)}, shapes {seen}")

# %% tags=["worker"]
WORKER = """
import sys
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

process_id, port = int(sys.argv[1]), sys.argv[2]
# collectives between processes on CPU: gloo
jax.config.update("jax_cpu_collectives_implementation", "gloo")
jax.distributed.initialize(
    coordinator_address=f"127.0.0.1:{port}",
    coordinator_bind_address=f"127.0.0.1:{port}",  # listen on this machine only
    num_processes=2,
    process_id=process_id,
    initialization_timeout=30,
)
mesh = Mesh(np.array(jax.devices()), ("i",))  # one CPU device per process
x = jax.make_array_from_callback((4,), NamedSharding(mesh, P("i")), lambda idx: np.arange(4.0)[idx])
me = jax.process_index()
mine = [s.data.tolist() for s in x.addressable_shards]
print(f"process {me} of {jax.process_count()} holds {mine}")
calls = []

@jax.jit
def f(x):
    jax.debug.callback(lambda block: calls.append(block.shape), x)
    jax.debug.print("debug.print, in process {}: {}", me, x)
    return x * 2

f(x).block_until_ready()
jax.effects_barrier()
print(f"process {me} ran f: host calls here {len(calls)}, shapes {calls}")

@jax.jit
def g(x):
    jax.debug.print("partitioned=True, in process {}: {}", me, x, partitioned=True)
    return x * 2

g(x).block_until_ready()
jax.effects_barrier()
jax.distributed.shutdown()
"""

# %% tags=["job"]
with tempfile.TemporaryDirectory() as tmp:
    worker = os.path.join(tmp, "worker.py")
    with open(worker, "w") as file:
        file.write(WORKER)
    with socket.socket() as s:  # ask the OS for a free port on 127.0.0.1
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    procs = [
        subprocess.Popen(
            [sys.executable, worker, str(i), str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(2)
    ]
    try:
        outputs = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            p.kill()  # no-op for a process that already exited

for i, (p, (out, err)) in enumerate(zip(procs, outputs, strict=True)):
    print(f"--- process {i} (exit code {p.returncode})")
    for line in out.splitlines():
        if not line.startswith("[Gloo]"):  # gloo's own "connected" message
            print(line)
    if p.returncode:
        print(err[-1000:])  # the end of its traceback

# %% tags=["solution"]
with tempfile.TemporaryDirectory() as out_dir:

    def write(index, block):
        np.save(os.path.join(out_dir, f"shard_{int(index)}.npy"), block)

    def save_block(block):
        io_callback(write, None, jax.lax.axis_index("i"), block)
        return block

    save = jax.jit(jax.shard_map(save_block, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    save(x).block_until_ready()
    jax.effects_barrier()
    for name in sorted(os.listdir(out_dir)):
        print(name, np.load(os.path.join(out_dir, name)))
