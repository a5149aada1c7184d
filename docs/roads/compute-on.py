# Part of a jitted function marked to run on the host, with no Python on the way;
# out_memory_spaces says where its result should live (device memory here).

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental.compute_on import compute_on


@compute_on(compute_type="device_host", out_memory_spaces=jax.memory.Space.Device)
def on_host(x):
    return jnp.sin(x) * 2.0


@jax.jit
def f(x):
    return on_host(x) + 1.0


x = jnp.linspace(0.0, 1.0, 4, dtype=jnp.float32)
expected = np.sin(np.linspace(0.0, 1.0, 4)) * 2.0 + 1.0
print("result:", np.round(np.asarray(f(x)), 4))
print("same as numpy:", bool(np.allclose(f(x), expected, rtol=1e-6)))

# The lowered program carries the mark on each operation it sends to the host.
text = f.lower(x).as_text()
print("operations marked for the host:", text.count('_xla_compute_type = "host"'))

# Transforms see an ordinary function.
g = jax.grad(lambda v: f(v).sum())(x)
print("grad same as 2 cos x:", bool(np.allclose(g, 2.0 * np.cos(x), rtol=1e-6)))
print("vmap shape:", jax.vmap(f)(jnp.stack([x, x])).shape)
total, _ = lax.scan(lambda c, v: (c + f(v).sum(), None), 0.0, jnp.stack([x, x, x]))
print("scan of three:", round(float(total), 4))
