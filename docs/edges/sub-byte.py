# A jitted pure_callback whose operand and result are uint4 or int2 (int4 has a section of
# its own): the dtype the host function gets, and whether the values come back unchanged.
import re

import jax
import jax.numpy as jnp
import numpy as np

for name, low, high in (("uint4", 0, 16), ("int2", -2, 2)):
    dtype = getattr(jnp, name, None)
    if dtype is None:
        print(f"{name}:", f"jax.numpy has no {name}")
        continue
    got = []

    def host(x, got=got):
        got.append(np.asarray(x).dtype.name)
        return np.asarray(x)

    f = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))
    try:
        x = jnp.arange(low, high, dtype=dtype)
        out = jax.block_until_ready(f(x))
        print(f"{name} host received:", got[0] if got else None)
        print(f"{name} round trip equal:", bool((np.asarray(out) == np.asarray(x)).all()))
    except Exception as e:
        print(f"{name} host received:", got[0] if got else None)
        print(f"{name} error:", type(e).__name__)
        line = re.sub(r"0x[0-9a-fA-F]+", "0x…", str(e).strip().splitlines()[0])[:120]
        print(f"{name} error line:", line)
