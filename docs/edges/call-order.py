# Two pure_callbacks that do not depend on each other, in one jitted program: in which order
# does the host run them? The first is written first; in the second program its input
# comes out of a long chain of device work, the other's straight from the argument.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

order = []


def host(name):
    def run(x):
        order.append(name)
        return np.asarray(x)

    return run


def first_written(call):
    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return call(host("a"), spec, x), call(host("b"), spec, x * 2)

    return f


def slow_first(call):
    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        y = x
        for _ in range(20):  # device work the first call waits for
            y = jnp.tanh(y @ y.T) @ y
        return call(host("a"), spec, y), call(host("b"), spec, x * 2)

    return f


x = jnp.ones((64, 64), jnp.float32) / 64
calls = (("pure callback", jax.pure_callback), ("io callback", io_callback))
for name, call in calls:
    for program, make in (("independent", first_written), ("first waits", slow_first)):
        orders = set()
        for _ in range(20):
            order.clear()
            jax.block_until_ready(jax.jit(make(call))(x))
            jax.effects_barrier()
            orders.add("".join(order))
        print(f"{name} {program} orders:", " ".join(sorted(orders)))
