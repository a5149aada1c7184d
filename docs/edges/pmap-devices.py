# jax.pmap over four CPU devices of a pure_callback that does not say how to batch it (no
# vmap_method): does it work, and what does each host call get?
import os

# four CPU devices (an XLA flag every JAX version reads; set before JAX starts)
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"
)

import jax
import jax.numpy as jnp
import numpy as np

shapes = []


def host(x):
    shapes.append(np.shape(x))
    return np.sin(x)


def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # no vmap_method


x = jnp.arange(12.0, dtype=jnp.float32).reshape(4, 3)
print("devices:", len(jax.devices()[:4]))
try:
    out = jax.block_until_ready(jax.pmap(f, devices=jax.devices()[:4])(x))
    print("pmap:", "works")
    print("host calls:", len(shapes))
    print("shapes seen:", sorted(set(shapes)))
    print("result right:", bool(np.allclose(np.asarray(out), np.sin(np.asarray(x)))))
except Exception as e:
    print("pmap:", type(e).__name__)
    print("pmap message:", str(e).strip().splitlines()[0][:160])
