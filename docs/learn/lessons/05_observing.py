# %% [markdown]
# # Lesson 5 · Observing: jax.debug
#
# Print, log and inspect values from compiled code with `jax.debug`, and count what `grad` with
# `checkpoint`, `vmap` of `cond`, `scan` and sharding do to a callback. The explanations are on
# the jaxcb site's page for this lesson.

# %% tags=["setup"]
import logging

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 4)  # before any computation: four CPU devices
print("CPU devices:", len(jax.devices("cpu")))


# %% tags=["trap"]
@jax.jit
def step(x):
    print(f"print: {x}")  # runs while tracing
    jax.debug.print(f"debug.print with an f-string: {x}")  # the string is made while tracing
    return x * 2


step(jnp.arange(3.0))
step(jnp.arange(3.0))  # the same shape: no new trace
jax.effects_barrier()


# %% tags=["fix"]
@jax.jit
def step(x):
    jax.debug.print("x = {}, sum = {total:.3f}", x, total=x.sum())
    return x * 2


step(jnp.arange(3.0))
step(jnp.arange(4.0))
jax.effects_barrier()

# %% tags=["callback"]
seen = []


def record(x):  # runs on the host, with the values of x; returns nothing
    seen.append((x.shape, float(x.min()), float(x.max())))


@jax.jit
def step(x):
    returned = jax.debug.callback(record, x)
    print("jax.debug.callback returned:", returned)
    return x * 2


step(jnp.arange(6.0))
jax.effects_barrier()
print("the host saw (shape, min, max):", seen)


# %% tags=["log"]
class PrintHandler(logging.Handler):
    def emit(self, record):
        print(f"logging got: {record.levelname} {record.getMessage()}")


logging.getLogger("jax").addHandler(PrintHandler())


@jax.jit
def step(x):
    jax.debug.log("loss = {:.3f}", (x**2).sum())
    return x * 2


step(jnp.arange(3.0))
jax.effects_barrier()

# %% tags=["remat"]
calls = []


def f(x):
    y = jnp.sin(x)
    jax.debug.callback(lambda v: calls.append(round(float(v), 4)), y)
    return y


jax.grad(f)(1.0)
jax.effects_barrier()
print(f"grad:             host calls {len(calls)}, saw {calls}")
calls.clear()
jax.grad(jax.checkpoint(f))(1.0)
jax.effects_barrier()
print(f"grad(checkpoint): host calls {len(calls)}, saw {calls}")

# %% tags=["vmap_cond"]
seen = {"small": [], "large": []}


def branch(name, op):
    def run(x):
        jax.debug.callback(lambda v: seen[name].append(float(v)), x)
        return op(x)

    return run


def g(x):
    return lax.cond(x < 2, branch("small", jnp.sin), branch("large", jnp.cos), x)


jax.jit(g)(0.0)
jax.effects_barrier()
print("cond, x = 0:         ", seen)
seen = {"small": [], "large": []}
y = jax.jit(jax.vmap(g))(jnp.array([0.0, 1.0, 5.0]))
jax.effects_barrier()
print("vmap(cond), x = 0 1 5:", seen)
print("results:", ", ".join(f"{v:.3f}" for v in y.tolist()))

# %% tags=["scan"]
steps = []


def body(total, x):
    jax.debug.callback(lambda t: steps.append(float(t)), total)
    return total + x, None


total, _ = jax.jit(lambda xs: lax.scan(body, 0.0, xs))(jnp.arange(5.0))
jax.effects_barrier()
print(f"5 steps: host calls {len(steps)}, carries seen {steps}")

# %% tags=["partitioned"]
mesh = Mesh(np.array(jax.devices("cpu")), ("i",))
x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))


def blocks_seen(partitioned):
    blocks = []

    @jax.jit
    def h(x):
        jax.debug.callback(lambda b: blocks.append(b.tolist()), x, partitioned=partitioned)
        return x * 2

    h(x).block_until_ready()
    jax.effects_barrier()
    return sorted(blocks)  # shards call in no fixed order


for partitioned in (False, True):
    blocks = blocks_seen(partitioned)
    print(f"partitioned={partitioned}: host calls {len(blocks)}, blocks {blocks}")


# %% tags=["exercise"]
def descend(w, i):  # one step of gradient descent on (w - 3)**2
    w = w - 0.2 * 2 * (w - 3.0)
    jax.debug.print("step {i}: w = {w:.3f}", i=i + 1, w=w)
    return w, None


jax.jit(lambda: lax.scan(descend, 0.0, jnp.arange(6)))()
jax.effects_barrier()


# %% tags=["solution"]
def descend_quietly(w, i, every=2):
    w = w - 0.2 * 2 * (w - 3.0)
    lax.cond(
        (i + 1) % every == 0,
        lambda: jax.debug.print("step {i}: w = {w:.3f}", i=i + 1, w=w),
        lambda: None,
    )
    return w, None


jax.jit(lambda: lax.scan(descend_quietly, 0.0, jnp.arange(6)))()
jax.effects_barrier()
