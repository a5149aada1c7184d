# %% [markdown]
# # Lesson 4 · Effects: io_callback
#
# This notebook shows what `io_callback` promises that `pure_callback` does not: it is kept when
# its result is unused, it can run in order, and `jax.effects_barrier()` waits for it. It also
# shows a loop under `grad` that loses every logged step, and a way to keep them. The
# explanations are on the jaxcb site's page for this lesson.

# %% tags=["dce"]
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

np.set_printoptions(precision=4, suppress=True)

host_calls = []  # one entry per time the host runs


def note(x):
    host_calls.append(float(x))
    return x


@jax.jit
def with_pure_callback(x):
    jax.pure_callback(note, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # result unused
    return x + 1


@jax.jit
def with_io_callback(x):
    io_callback(note, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # result unused
    return x + 1


for f in (with_pure_callback, with_io_callback):
    host_calls.clear()
    f(jnp.float32(1.0))
    jax.effects_barrier()  # wait for every effect before reading host_calls
    print(f"{f.__name__}: host calls {len(host_calls)}")

# %% tags=["ordered"]
order = []


def record(i):
    order.append(int(i))


@jax.jit
def three_steps(start):
    for k in range(3):
        io_callback(record, None, start + k, ordered=True)
    return start


for call in range(3):
    three_steps(10 * call)
jax.effects_barrier()
print("order the host saw:", order)


# %% tags=["barrier"]
@jax.jit
def slow_matrix(a):
    return lax.fori_loop(0, 100, lambda i, b: jnp.tanh(b @ a), a)  # no callback in here


def remember(x):
    host_calls.append(float(x))


@jax.jit
def log_corner(b):
    io_callback(remember, None, b[0, 0])


a = jnp.full((500, 500), 0.001, jnp.float32)
log_corner(slow_matrix(a))  # compile both first
jax.effects_barrier()

host_calls.clear()
t0 = time.perf_counter()
log_corner(slow_matrix(a))  # the callback waits for slow_matrix's result
t1 = time.perf_counter()
print(f"when the line returned: host calls {len(host_calls)} (it took {1e3 * (t1 - t0):.1f} ms)")
jax.effects_barrier()
t2 = time.perf_counter()
print(f"after effects_barrier: host calls {len(host_calls)} (it waited {1e3 * (t2 - t1):.1f} ms)")

# %% tags=["trap"]
logged = []


def log_step(t, x):
    logged.append((int(t), float(x)))


def rollout_loss(w):
    def step(x, t):
        io_callback(log_step, None, t, lax.stop_gradient(x), ordered=True)
        return w * x, None

    x_final, _ = lax.scan(step, jnp.float32(1.0), jnp.arange(5))
    return (x_final - 2.0) ** 2


for name, f in [
    ("loss", rollout_loss),
    ("grad", jax.grad(rollout_loss)),
    ("value_and_grad", jax.value_and_grad(rollout_loss)),
]:
    logged.clear()
    jax.jit(f)(1.1)
    jax.effects_barrier()
    in_program = "io_callback" in str(jax.make_jaxpr(f)(1.1))
    print(f"jit({name}): logged {len(logged)} of 5 steps; io_callback in its program: {in_program}")


# %% tags=["nojvp"]
def rollout_loss_direct(w):
    def step(x, t):
        io_callback(log_step, None, t, x, ordered=True)  # x depends on w
        return w * x, None

    x_final, _ = lax.scan(step, jnp.float32(1.0), jnp.arange(5))
    return (x_final - 2.0) ** 2


try:
    jax.jit(jax.value_and_grad(rollout_loss_direct))(1.1)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")


# %% tags=["fix"]
def rollout_loss_aux(w):
    def step(x, t):
        return w * x, x  # hand each step's value out of the loop

    x_final, xs = lax.scan(step, jnp.float32(1.0), jnp.arange(5))
    return (x_final - 2.0) ** 2, xs  # (loss, aux)


def log_steps(xs):
    for t, x in enumerate(xs):
        logged.append((t, float(x)))


@jax.jit
def train_step(w):
    (loss, xs), grad = jax.value_and_grad(rollout_loss_aux, has_aux=True)(w)
    io_callback(log_steps, None, xs, ordered=True)  # outside the differentiated function
    return loss, grad


logged.clear()
loss, grad = train_step(1.1)
jax.effects_barrier()
print(f"logged {len(logged)} of 5 steps:", [(t, round(x, 4)) for t, x in logged])
print(f"loss {loss:.4f}  grad {grad:.4f}")


# %% tags=["exercise"]
@jax.jit
def train(w):
    def one_step(w, step):
        (loss, _), grad = jax.value_and_grad(rollout_loss_aux, has_aux=True)(w)
        return w - 0.005 * grad, loss

    return lax.scan(one_step, w, jnp.arange(6))


w, losses = train(1.1)
print(f"w after 6 steps: {w:.4f}")
# Your turn: log the step number and the loss of every training step from inside
# train, so that the host sees 6 of 6.

# %% tags=["solution"]
seen_steps = []


def log_training(step, loss):
    seen_steps.append((int(step), float(loss)))


@jax.jit
def train_logged(w):
    def one_step(w, step):
        (loss, _), grad = jax.value_and_grad(rollout_loss_aux, has_aux=True)(w)
        io_callback(log_training, None, step, loss, ordered=True)  # after the gradient
        return w - 0.005 * grad, loss

    return lax.scan(one_step, w, jnp.arange(6))


w, losses = train_logged(1.1)
jax.effects_barrier()
print(f"logged {len(seen_steps)} of 6 training steps")
for step, loss in seen_steps:
    print(f"step {step}: loss {loss:.2e}")
