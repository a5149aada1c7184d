# Log every step's metrics from a jitted training loop that runs several steps per call.
# The metrics leave the compiled code as outputs (lax.scan stacks them), not through a
# host callback, so none are lost under grad and the host logs them after each call.
import jax
import jax.numpy as jnp
import numpy as np


def make_train_chunk(loss_fn, lr, steps_per_call):
    """A jitted function: `steps_per_call` SGD steps in one call, returning the new
    params and a dict of per-step metrics, each of shape (steps_per_call,)."""
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)  # loss_fn returns (loss, aux dict)

    def one_step(params, batch):
        (loss, aux), grads = grad_fn(params, *batch)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        leaves = jax.tree_util.tree_leaves(grads)
        grad_norm = jnp.sqrt(sum(jnp.sum(g**2) for g in leaves))
        return params, {"loss": loss, "grad_norm": grad_norm, **aux}

    @jax.jit
    def train_chunk(params, batches):  # batches: arrays with a leading axis of steps
        return jax.lax.scan(one_step, params, batches)

    return train_chunk


# Demo: linear regression on fixed data, 4 calls of 5 steps each.
def loss_fn(params, x, y):
    err = x @ params["w"] + params["b"] - y
    return jnp.mean(err**2), {"mae": jnp.mean(jnp.abs(err))}


rng = np.random.default_rng(0)
calls, steps, batch = 4, 5, 32
x = rng.normal(size=(calls, steps, batch, 3)).astype(np.float32)
y = x @ np.array([2.0, -1.0, 0.5], np.float32) + 3.0
params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
train_chunk = make_train_chunk(loss_fn, lr=0.1, steps_per_call=steps)

log = []  # one dict of Python floats per step
for c in range(calls):
    params, metrics = train_chunk(params, (x[c], y[c]))
    metrics = jax.device_get(metrics)  # one transfer per call, not per step
    for i in range(steps):
        log.append({k: float(v[i]) for k, v in metrics.items()})

print(f"steps logged: {len(log)} of {calls * steps}")
for step in (1, 2, 10, 20):
    m = log[step - 1]
    print(f"step {step}: " + ", ".join(f"{k} {v:.4g}" for k, v in m.items()))
print("final w: " + ", ".join(f"{v:.4g}" for v in np.asarray(params["w"])))
print(f"final b: {float(params['b']):.4g}")
