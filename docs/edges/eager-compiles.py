# How many times XLA compiles a program for three calls of a pure_callback: called eagerly
# (no jit) with the same host function, eagerly with a new lambda each time, and under jit.
import jax
import jax.numpy as jnp
import numpy as np

compiles = []


def listen(event, duration, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        compiles.append(event)


jax.monitoring.register_event_duration_secs_listener(listen)
x = jnp.ones(3, jnp.float32)
spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
jax.block_until_ready(x + 1)  # compile what the input needs before counting


def host(x):
    return np.sin(x)


def same_function():
    return jax.pure_callback(host, spec, x)


def new_lambda():
    return jax.pure_callback(lambda x: np.sin(x), spec, x)


jitted = jax.jit(lambda x: jax.pure_callback(host, spec, x))
for name, call in (
    ("eager same function", same_function),
    ("eager new lambda", new_lambda),
    ("jit", lambda: jitted(x)),
):
    compiles.clear()
    for _ in range(3):
        jax.block_until_ready(call())
    print(f"{name} calls:", 3)
    print(f"{name} compiles:", len(compiles))
