"""Research code from the days of host_callback: logging and a host solver."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import export  # expect: JXC008
from jax.experimental import host_callback as hcb  # expect: JXC005

try:
    from jax.experimental import host_callback as _maybe_hcb
except ImportError:
    _maybe_hcb = None


def _log(arg, transforms):
    print("state:", arg)


def solve_on_host(a, b):
    return np.linalg.solve(a, b).astype(b.dtype)


def step(x, a):
    x = hcb.id_tap(_log, x)  # expect: JXC001
    hcb.id_print(jnp.sum(x), what="sum")  # expect: JXC002
    y = hcb.call(  # expect: JXC003
        lambda ab: solve_on_host(*ab),
        (a, x),
        result_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    )
    return y


def run(xs, a):
    out = jax.jit(jax.vmap(lambda x: step(x, a)))(xs)
    hcb.barrier_wait()  # expect: JXC004
    return out


def serialize(a, x):
    exported = export.export(jax.jit(lambda x: step(x, a)))(x)
    return exported.serialize()
