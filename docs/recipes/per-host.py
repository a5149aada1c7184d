# Per-host logging and per-shard file writes in a multi-process JAX job.
# Run as is, it starts 2 processes of itself (2 CPU devices each) on 127.0.0.1 and
# prints what they logged and wrote.
import os
import socket
import subprocess
import sys
import tempfile
from subprocess import PIPE

import jax
import numpy as np
from jax.experimental import io_callback
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P


def log_once(msg):
    if jax.process_index() == 0:  # one line for the whole job, not one per host
        print(msg, flush=True)


def write_shards(x, mesh, out_dir):
    # Every device writes its own block to out_dir/shard-<index>.txt on its own host.
    def write(index, block):
        with open(os.path.join(out_dir, f"shard-{int(index)}.txt"), "w") as f:
            f.write(f"process {jax.process_index()} wrote {block.tolist()}")

    def body(block):
        io_callback(write, None, jax.lax.axis_index("i"), block)
        return block

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    jax.block_until_ready(f(x))
    jax.effects_barrier()  # every write has finished


def worker(process_id, port, out_dir):  # one process of the job; all run the same code
    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_num_cpu_devices", 2)
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    address = f"127.0.0.1:{port}"
    jax.distributed.initialize(  # coordinator_address, listening on 127.0.0.1 only
        address, num_processes=2, process_id=process_id, coordinator_bind_address=address
    )
    mesh = Mesh(np.array(jax.devices()), ("i",))  # all 4 devices of both processes
    data = np.arange(8.0).reshape(4, 2)
    x = jax.make_array_from_callback(data.shape, NamedSharding(mesh, P("i")), lambda i: data[i])
    log_once(f"{jax.process_count()} processes, {jax.device_count()} devices")
    write_shards(x, mesh, out_dir)
    jax.distributed.shutdown()


if len(sys.argv) == 4 and sys.argv[1].isdigit():
    worker(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
else:  # the demo: start the job, wait for it (at most 60 s a process), show what happened
    with socket.socket() as s:  # a free port for the coordinator
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as out_dir:
        me = [sys.executable, os.path.abspath(__file__)]
        args = [[str(i), str(port), out_dir] for i in range(2)]
        procs = [subprocess.Popen(me + a, stdout=PIPE, stderr=PIPE, text=True) for a in args]
        for i, p in enumerate(procs):
            try:
                out, err = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()  # e.g. one waiting in initialize for a process that died
                out, err = p.communicate()
            print(f"process {i}: exit code {p.returncode}, logged {out.strip() or 'nothing'}")
            if p.returncode:
                print(f"process {i} error: {(err.strip().splitlines() or ['?'])[-1]}")
        names = sorted(os.listdir(out_dir))
        print(f"files written: {', '.join(names) or 'none'}")
        for name in names:
            with open(os.path.join(out_dir, name)) as f:
                print(f"{name[:-4].replace('-', ' ')}: {f.read()}")
