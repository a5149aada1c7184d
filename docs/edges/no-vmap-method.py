# A pure_callback that does not say how to batch it (no vmap_method), under jit, vmap,
# grad, pmap and shard_map (over one device): which transforms work and which raise.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

try:
    from jax import shard_map  # JAX 0.6 and later
except ImportError:
    from jax.experimental.shard_map import shard_map


def f(x):
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # no vmap_method


x = jnp.ones(4, jnp.float32)
mesh = Mesh(np.array(jax.devices()[:1]), ("i",))
for name, run in (
    ("jit", lambda: jax.jit(f)(x)),
    ("vmap", lambda: jax.vmap(f)(x)),
    ("grad", lambda: jax.grad(lambda x: f(x).sum())(x)),
    ("pmap", lambda: jax.pmap(f)(x.reshape(1, 4))),
    ("shard map", lambda: jax.jit(shard_map(f, mesh=mesh, in_specs=P("i"), out_specs=P("i")))(x)),
):
    try:
        jax.block_until_ready(run())
        print(f"{name}:", "works")
    except Exception as e:
        print(f"{name}:", type(e).__name__)
