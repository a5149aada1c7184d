import os
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import colocated_python  # it imports cloudpickle: pip install cloudpickle

log_file = os.path.join(tempfile.mkdtemp(), "steps.txt")
seen = []  # a list of the calling program


def on_host(k, x):  # runs on the host of the devices x lives on
    seen.append(int(k))  # appends to the copy's list: JAX sent a pickled copy
    with open(log_file, "a") as f:  # a file the calling program can read
        f.write(f"step {int(k)}: {np.asarray(x).tolist()}\n")


log = colocated_python.colocated_python(on_host)
step = jax.jit(lambda x: 0.5 * x + 1)  # the compiled part: one step

x = jnp.zeros(2)
for k in range(1, 4):  # the loop is Python: log cannot be called inside jit
    x = step(x)
    log(jnp.int32(k), x)

with open(log_file) as f:
    print(f.read(), end="")
print("the calling program's list:", seen)
try:
    jax.jit(lambda x: log(jnp.int32(0), x))(x)
except AttributeError as e:
    print("under jit:", type(e).__name__, str(e).split(".")[0])
