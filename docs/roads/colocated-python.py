# Python next to the devices, outside jit: JAX runs a colocated_python function on the
# host of the devices its arguments live on, sending it there pickled (its code imports
# cloudpickle for that: pip install cloudpickle).
import os
import tempfile
import time

import jax
import jax.experimental.colocated_python as colocated_python
import jax.numpy as jnp
import numpy as np

devices = colocated_python.colocated_cpu_devices(jax.local_devices()[:1])
seen = []  # a list of the calling program
trace = os.path.join(tempfile.mkdtemp(), "trace.txt")


@colocated_python.colocated_python
def work(x):
    seen.append(1)  # appends to the copy's list
    with open(trace, "a") as f:
        f.write(f"start {int(x[0])}\n")
    time.sleep(0.2)
    with open(trace, "a") as f:
        f.write(f"end {int(x[0])}\n")
    return x * 2, jax.device_put(np.full(1, os.getpid()), x.sharding)  # and where it ran


xs = [jax.device_put(jnp.full(3, float(k)), devices[0]) for k in range(3)]
ys = [work(x) for x in xs]  # three calls, one after another
with open(trace) as f:
    finished_when_returned = f.read().count("end")
print("calls finished when the third returned:", finished_when_returned)
print("results:", [np.asarray(y).tolist() for y, _ in ys])
print("ran in the calling process:", int(np.asarray(ys[0][1])[0]) == os.getpid())
with open(trace) as f:
    print("order on the host:", " ".join(line.strip() for line in f))
print("the calling list changed:", len(seen) > 0)
print("results are jax arrays:", all(isinstance(r, jax.Array) for r in ys[0]))
try:
    jax.jit(work)(xs[0])
    print("under jit: runs")
except Exception as e:
    print("under jit:", type(e).__name__)
