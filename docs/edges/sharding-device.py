# pure_callback(..., sharding=SingleDeviceSharding(d)) in a program whose input is split over
# two CPU devices: the callback's result returned as it is, with d the first device and with
# the second; then the same result passed through with_sharding_constraint before it leaves
# the program; last, d a device the program does not run on.
import os

# two CPU devices (an XLA flag every JAX version reads; set before JAX starts)
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"
)

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, SingleDeviceSharding
from jax.sharding import PartitionSpec as P

devices = jax.devices()[:2]
mesh = Mesh(np.array(devices), ("i",))
x = jax.device_put(jnp.arange(4.0, dtype=jnp.float32), NamedSharding(mesh, P("i")))
expected = np.sin(np.arange(4.0, dtype=np.float32))
calls = []


def host(x):
    calls.append(x.shape)
    return np.sin(x)


def first_line(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


for dev in devices:

    def f(x, dev=dev):
        shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(host, shape, x, sharding=SingleDeviceSharding(dev))

    def fixed(x):  # the result replicated over the mesh inside the program
        return jax.lax.with_sharding_constraint(f(x), NamedSharding(mesh, P()))

    calls.clear()
    out = jax.block_until_ready(jax.jit(f)(x))
    print(f"device {dev.id} host calls:", len(calls))
    print(f"device {dev.id} host received:", calls[0] if calls else None)
    print(f"device {dev.id} result right:", np.allclose(np.asarray(out), expected, atol=1e-6))
    for shard in sorted(out.addressable_shards, key=lambda s: s.device.id):
        right = np.allclose(np.asarray(shard.data), expected, atol=1e-6)
        print(f"device {dev.id} copy on device {shard.device.id} right:", right)
    try:
        jax.block_until_ready(out + 1)
        print(f"device {dev.id} result plus one:", "works")
    except Exception as e:
        print(f"device {dev.id} result plus one:", type(e).__name__)
        print(f"device {dev.id} its message:", str(e).splitlines()[0])
    out = jax.block_until_ready(jax.jit(fixed)(x))
    print(
        f"device {dev.id} constrained result right:",
        np.allclose(np.asarray(out), expected, atol=1e-6),
    )

one = jax.device_put(jnp.arange(4.0, dtype=jnp.float32), devices[0])  # a program on device 0 alone
try:
    jax.jit(
        lambda x: jax.pure_callback(
            host,
            jax.ShapeDtypeStruct(x.shape, x.dtype),
            x,
            sharding=SingleDeviceSharding(devices[1]),
        )
    )(one)
    print("device not in the program:", "works")
except Exception as e:
    print("device not in the program:", first_line(e))
