# A jitted pure_callback whose operand and result are int4: the dtype the host function
# gets, and whether the values come back unchanged.
import re

import jax
import jax.numpy as jnp
import numpy as np

got = []


def host(x):
    got.append(np.asarray(x).dtype.name)
    return np.asarray(x)


x = jnp.arange(-3, 4, dtype=jnp.int4)
f = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))
out = error = line = None
try:
    out = jax.block_until_ready(f(x))
except Exception as e:
    error = type(e).__name__
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", str(e).strip().splitlines()[0])[:120]
print("host received:", got[0] if got else None)
print("round trip equal:", None if out is None else bool((np.asarray(out) == np.asarray(x)).all()))
print("error:", error)
print("error line:", line)
