import os
import tempfile

import jax.numpy as jnp

from jaxcb_colocated import log_steps

path = os.path.join(tempfile.mkdtemp(), "steps.txt")


def log(k, x):  # runs next to the devices, a pickled copy: it writes to a file
    with open(path, "a") as f:
        f.write(f"step {k}: {x}\n")


x = log_steps(jnp.zeros(2), 3, log=log)  # a Python loop of jitted steps
print("final state:", x)
with open(path) as f:
    print(f.read(), end="")
