# jax.export of a function that calls a pure_callback.
# A Python host function cannot be serialized, so export refuses the whole function.
import jax
import jax.numpy as jnp
import numpy as np
from jax import export


def f(x):
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


try:
    export.export(jax.jit(f))(jax.ShapeDtypeStruct((3,), jnp.float32))
    print("raises: nothing")
except Exception as e:  # which error the caller sees is the lesson
    print("raises:", type(e).__name__)
    print("says:", str(e).splitlines()[0][:80])
