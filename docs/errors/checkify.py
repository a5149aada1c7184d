# Instead of raising in the host function: turn its flag into a checkify error, a value
# that jit, vmap and grad carry; err.throw() raises it on the host, after the program.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify


def host(x):
    return np.asarray(np.all(np.asarray(x) >= 0))


def f(x):
    ok = jax.pure_callback(host, jax.ShapeDtypeStruct((), jnp.bool_), x, vmap_method="expand_dims")
    checkify.check(ok, "negative input: {x}", x=x[0])
    return jnp.sqrt(x)


checked = jax.jit(checkify.checkify(f))
err, _ = checked(jnp.array([-4.0, 1.0]))
print("error value:", err.get().split(" (")[0])
try:
    err.throw()
except Exception as e:
    print("throw raises:", type(e).__name__)
good, _ = checked(jnp.array([4.0, 1.0]))
print("no error for good input:", good.get() is None)
