import os
import sys

import jax

from jaxcb_ffi import log_steps

os.dup2(sys.stdout.fileno(), sys.stderr.fileno())  # the C++ logger writes to standard error

x = jax.jit(lambda x0: log_steps(x0, 3))(0.0)
print("final state:", x)
