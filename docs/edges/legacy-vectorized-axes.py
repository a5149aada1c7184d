# jax.vmap with in_axes=1 and out_axes=1 of a pure_callback with
# vmap_method="legacy_vectorized": the shape the host function gets, and the result.
import re

import jax
import jax.numpy as jnp
import numpy as np

shapes = []


def host(x):
    shapes.append(np.shape(x))
    return np.sin(x)


def f(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host, spec, x, vmap_method="legacy_vectorized")


x = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)  # the batch of 4 on axis 1
for name, axes in (
    ("in axes 1", {"in_axes": 1}),
    ("in and out axes 1", {"in_axes": 1, "out_axes": 1}),
):
    shapes.clear()
    try:
        out = jax.block_until_ready(jax.jit(jax.vmap(f, **axes))(x))
        want = np.sin(np.asarray(x)) if "out" in name else np.sin(np.asarray(x)).T
        print(f"{name} host calls:", len(shapes))
        print(f"{name} host shape:", shapes[0] if shapes else None)
        print(f"{name} result shape:", tuple(out.shape))
        print(f"{name} result right:", bool(np.allclose(np.asarray(out), want)))
    except Exception as e:
        print(f"{name} error:", type(e).__name__)
        print(
            f"{name} error line:",
            re.sub(r"0x[0-9a-fA-F]+", "0x…", str(e).strip().splitlines()[0])[:120],
        )
