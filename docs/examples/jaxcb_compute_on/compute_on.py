import inspect

import jax
import jax.numpy as jnp
from jax.experimental.compute_on import compute_on


def sin_scale(x, y):
    return jnp.sin(x) * y + 1  # jax.numpy, as on the device


if "out_memory_spaces" in inspect.signature(compute_on).parameters:  # JAX 0.12 and later
    device = jax.memory.Space.Device  # where the result lives: device memory
    on_host = compute_on(compute_type="device_host", out_memory_spaces=device)(sin_scale)
else:  # the releases before: the compute type alone, as a context manager

    def on_host(x, y):
        with compute_on("device_host"):
            return sin_scale(x, y)


x = jnp.linspace(0.0, 1.5, 4)
f = jax.jit(on_host)
print("jit: ", f(x, 2.0))
mark = '_xla_compute_type = "host"'  # on each operation compute_on moves to the host
print("operations marked for the host:", f.lower(x, 2.0).as_text().count(mark))
print("vmap:", jax.vmap(on_host, in_axes=(None, 0))(x, jnp.array([1.0, 2.0])))
print("grad:", jax.grad(lambda x: on_host(x, 2.0).sum())(x))
