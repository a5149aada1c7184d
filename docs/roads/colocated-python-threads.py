# colocated_python called from two threads at once: do the two calls take turns on the
# host, or run at the same time? Each call writes when it starts and ends (it imports
# cloudpickle to send the function: pip install cloudpickle).
import os
import tempfile
import threading
import time

import jax
import jax.experimental.colocated_python as colocated_python
import jax.numpy as jnp

devices = colocated_python.colocated_cpu_devices(jax.local_devices()[:1])
trace = os.path.join(tempfile.mkdtemp(), "trace.txt")


@colocated_python.colocated_python
def work(x):
    with open(trace, "a") as f:
        f.write(f"start {int(x[0])}\n")
    time.sleep(0.3)
    with open(trace, "a") as f:
        f.write(f"end {int(x[0])}\n")
    return x * 2


xs = [jax.device_put(jnp.full(3, float(k)), devices[0]) for k in range(2)]
work(xs[0]).block_until_ready()  # a first call, alone
open(trace, "w").close()  # then start the trace again


def call(x):
    work(x).block_until_ready()


threads = [threading.Thread(target=call, args=(x,)) for x in xs]
for t in threads:
    t.start()
for t in threads:
    t.join()
with open(trace) as f:
    events = [line.split()[0] for line in f]
print("order on the host:", " ".join(events))
print("the two calls overlapped:", events[:2] == ["start", "start"])
