"""A scan with a progress bar and a log line every 100 steps."""

import functools

import jax
import jax.numpy as jnp
from jax import lax

TOTAL = 1000


def _bar(step, loss):
    print(f"\r{int(step):5d}/{TOTAL} loss={float(loss):.4f}", end="")


def report(step, loss):
    # every 100 steps: one host call from the branch that runs
    lax.cond(
        step % 100 == 0,
        lambda: jax.debug.callback(_bar, step, loss, ordered=True),
        lambda: None,
    )


def train(params, batches, name="run"):
    def body(carry, batch):
        params, step = carry
        loss = jnp.mean((params - batch) ** 2)
        report(step, loss)
        jax.debug.print(f"[{name}] step {{s}} loss {{l}}", s=step, l=loss)
        jax.debug.print(f"loss={loss}")  # expect: JXC009
        jax.debug.print("params norm: " + str(jnp.linalg.norm(params)))  # expect: JXC009
        return (params - 0.1 * (params - batch), step + 1), loss

    (params, _), losses = lax.scan(body, (params, 0), batches)
    return params, losses


log_every = functools.partial(jax.debug.callback, ordered=True)
