# Code blocks of the seed text "External Callbacks in JAX" (JAX's early External
# callbacks guide, seed 004), verbatim and in order, outputs and tracebacks left out.
# The seed text lost the code's indentation; it is restored from the original notebook
# (jax-ml/jax, docs/notebooks/external_callbacks.md at commit df02d70, December 2022), the
# only change. Never run by the tests: `jaxcb check` parses it.
# ruff: noqa
# fmt: off

import jax
import jax.numpy as jnp
import scipy.special
def jv(v, z):
  v, z = jnp.asarray(v), jnp.asarray(z)
  # Require the order v to be integer type: this simplifies
  # the JVP rule below.
  assert jnp.issubdtype(v.dtype, jnp.integer)
  # Promote the input to inexact (float/complex).
  # Note that jnp.result_type() accounts for the enable_x64 flag.
  z = z.astype(jnp.result_type(float, z.dtype))
  # Wrap scipy function to return the expected dtype.
  _scipy_jv = lambda v, z: scipy.special.jv(v, z).astype(z.dtype)
  # Define the expected shape & dtype of output.
  result_shape_dtype = jax.ShapeDtypeStruct(
      shape=jnp.broadcast_shapes(v.shape, z.shape),
      dtype=z.dtype)
  # We use vectorize=True because scipy.special.jv handles broadcasted inputs.
  return jax.pure_callback(_scipy_jv, result_shape_dtype, v, z, vectorized=True)

from functools import partial
j1 = partial(jv, 1)
z = jnp.arange(5.0)
print(j1(z))

print(jax.jit(j1)(z))

print(jax.vmap(j1)(z))

jax.grad(j1)(z)

jv = jax.custom_jvp(jv)
@jv.defjvp
def _jv_jvp(primals, tangents):
  v, z = primals
  _, z_dot = tangents # Note: v_dot is always 0 because v is integer.
  jv_minus_1, jv_plus_1 = jv(v - 1, z), jv(v + 1, z)
  djv_dz = jnp.where(v == 0, -jv_plus_1, 0.5 * (jv_minus_1 - jv_plus_1))
  return jv(v, z), z_dot * djv_dz

j1 = partial(jv, 1)
print(jax.grad(j1)(2.0))

jax.hessian(j1)(2.0)
