# Host functions that return a Fortran-ordered array, or a strided view, to a pure_callback:
# does JAX still get the right values?
import jax
import jax.numpy as jnp
import numpy as np

x = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
spec = jax.ShapeDtypeStruct(x.shape, x.dtype)


def fortran(x):
    return np.asfortranarray(np.asarray(x) * 2)


def strided(x):
    return (np.asarray(x) * 2).repeat(2, axis=1)[:, ::2]  # a view with a step


want = np.asarray(x) * 2
a = jax.jit(lambda x: jax.pure_callback(fortran, spec, x))(x)
b = jax.jit(lambda x: jax.pure_callback(strided, spec, x))(x)
print("fortran result equal:", bool((np.asarray(a) == want).all()))
print("strided result equal:", bool((np.asarray(b) == want).all()))
