# An unordered io_callback in the body of a while loop whose predicate is batched (each
# batch element stops after its own number of steps), under vmap; then the same with
# ordered=True.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

seen = []


def host(i):
    seen.append(np.shape(i))
    return np.asarray(i)


def make(ordered):
    def f(n):
        def body(i):
            spec = jax.ShapeDtypeStruct(i.shape, i.dtype)
            return io_callback(host, spec, i, ordered=ordered) + 1

        return lax.while_loop(lambda i: i < n, body, jnp.int32(0))  # stops at n: batched

    return f


n = jnp.array([1, 2, 3, 4], jnp.int32)
for name, ordered in (("unordered", False), ("ordered", True)):
    seen.clear()
    try:
        out = jax.block_until_ready(jax.vmap(make(ordered))(n))
        jax.effects_barrier()
        print(f"{name}:", "works")
        print(f"{name} host calls:", len(seen))
        print(f"{name} shapes seen:", sorted(set(seen)))
        print(f"{name} result right:", bool((np.asarray(out) == np.asarray(n)).all()))
    except Exception as e:
        print(f"{name}:", type(e).__name__)
        print(f"{name} message:", str(e).strip().splitlines()[0][:160])
