import inspect
import re

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


mark = re.compile(r'(stablehlo\.\w+)[^\n]*_xla_compute_type = "host"')  # compute_on's mark


def ops_on_host(f, *args):
    return sorted(set(mark.findall(jax.jit(f).lower(*args).as_text())))


def loss(x):
    return on_host(x, 2.0).sum()


x = jnp.linspace(0.0, 1.5, 4)
print("jit: ", jax.jit(on_host)(x, 2.0))
print("on the host:", ops_on_host(on_host, x, 2.0))
print("grad:", jax.grad(loss)(x))
print("on the host under grad:", ops_on_host(jax.grad(loss), x))
batched = jax.vmap(on_host, in_axes=(None, 0))
print("vmap:", batched(x, jnp.array([1.0, 2.0])))
print("on the host under vmap:", ops_on_host(batched, x, jnp.array([1.0, 2.0])))


def three_steps(x):
    return jax.lax.scan(lambda c, _: (on_host(c, 0.5), None), x, None, length=3)[0]


print("scan:", jax.jit(three_steps)(x))
print("on the host in a scan:", ops_on_host(three_steps, x))
