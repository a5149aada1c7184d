# Whether the persistent compilation cache stores a jitted program holding a pure_callback,
# beside a plain one. JAX sets the cache up once per process: run this in a fresh Python.
import os
import tempfile

import jax
import jax.numpy as jnp
import numpy as np

with tempfile.TemporaryDirectory() as d:
    jax.config.update("jax_compilation_cache_dir", d)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    f = jax.jit(lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x))
    g = jax.jit(lambda x: jnp.sin(x) * 3)
    jax.block_until_ready(g(jnp.ones(3)))
    before = len(os.listdir(d))  # entries after the plain program
    jax.block_until_ready(f(jnp.ones(3)))
    after = len(os.listdir(d))  # ... and after the one with the callback
print("native cached:", before > 0)
print("callback cached:", after > before)
