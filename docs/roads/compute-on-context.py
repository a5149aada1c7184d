# The same on JAX releases before compute_on took a function: a context manager around
# the operations marked for the host, inside the jitted function.

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.compute_on import compute_on


@jax.jit
def f(x):
    with compute_on("device_host"):
        y = jnp.sin(x) * 2.0
    return y + 1.0


x = jnp.linspace(0.0, 1.0, 4, dtype=jnp.float32)
expected = np.sin(np.linspace(0.0, 1.0, 4)) * 2.0 + 1.0
print("result:", np.round(np.asarray(f(x)), 4))
print("same as numpy:", bool(np.allclose(f(x), expected, rtol=1e-6)))
text = f.lower(x).as_text()
print("operations marked for the host:", text.count('_xla_compute_type = "host"'))
g = jax.grad(lambda v: f(v).sum())(x)
print("grad same as 2 cos x:", bool(np.allclose(g, 2.0 * np.cos(x), rtol=1e-6)))
