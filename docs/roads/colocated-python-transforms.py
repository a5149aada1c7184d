# What each transform does to a colocated_python function, called with a jax.Array
# (it imports cloudpickle to send the function: pip install cloudpickle).
import jax
import jax.experimental.colocated_python as colocated_python
import jax.numpy as jnp
import numpy as np
from jax import lax

devices = colocated_python.colocated_cpu_devices(jax.local_devices()[:1])


@colocated_python.colocated_python
def double(x):
    return x * 2


x = jax.device_put(jnp.arange(3.0), devices[0])
attempts = {
    "eager": lambda: double(x),
    "jit": lambda: jax.jit(double)(x),
    "grad": lambda: jax.grad(lambda v: double(v).sum())(x),
    "vmap": lambda: jax.vmap(double)(x),
    "jvp": lambda: jax.jvp(double, (x,), (jnp.ones(3),)),
    "checkpoint": lambda: jax.checkpoint(double)(x),
    "eval shape": lambda: jax.eval_shape(double, x),
    "a fori loop": lambda: lax.fori_loop(0, 2, lambda i, v: double(v), x),
    "a numpy array": lambda: double(np.arange(3.0)),
    "an array on the default device": lambda: double(jnp.arange(3.0)),
}
for name, attempt in attempts.items():
    try:
        jax.block_until_ready(attempt())
        print(f"{name}: runs")
    except Exception as e:
        print(f"{name}: {type(e).__name__}")
print("eager result:", np.asarray(double(x)).tolist())
try:
    jax.jit(double)(x)
except AttributeError as e:
    print("the error under jit begins:", str(e).split(".")[0])
