# Old code that taps a value with jax.experimental.host_callback, a module newer JAX removed.
import jax
import jax.numpy as jnp

seen = []
try:
    from jax.experimental import host_callback
except ImportError as e:  # what old code meets on a new JAX
    print("import: raises", type(e).__name__)
else:
    print("import: works")
    f = jax.jit(lambda x: host_callback.id_tap(lambda v, transforms: seen.append(v), x) * 2)
    jax.block_until_ready(f(jnp.arange(3.0)))
    host_callback.barrier_wait()
    print("host received:", seen[0])
