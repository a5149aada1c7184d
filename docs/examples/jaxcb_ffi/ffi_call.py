# The C++ handler is compiled when jaxcb-ffi is installed; importing it registers the target.
import jax
import jax.numpy as jnp

from jaxcb_ffi import sin_scale
from jaxcb_ffi.sin_scale import TARGET, sin_scale_callback

x = jnp.linspace(0.0, 1.5, 4)
print("target:", TARGET)
print("ffi_call:", jax.jit(sin_scale_callback)(x, 2.0))  # no derivative rule of its own
print("grad:   ", jax.grad(lambda x: sin_scale(x, 2.0).sum())(x))  # the custom_jvp rule
print("vmap:   ", jax.vmap(sin_scale, in_axes=(None, 0))(x, jnp.array([1.0, 2.0])))
