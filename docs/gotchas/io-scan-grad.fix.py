# Instead: return the per-step values as an auxiliary output (has_aux=True) and log them
# on the host after the step; no callback inside the differentiated loop.
import jax
import jax.numpy as jnp
from jax import lax

logged = []


def step(c, k):
    return c * 1.5, k  # the step index, as a per-step output


def loss(c0):
    c, ks = lax.scan(step, c0, jnp.arange(5))
    return c, ks  # (value to differentiate, auxiliary output)


print("steps:", 5)
_, ks = jax.jit(loss)(1.0)
logged.extend(int(k) for k in ks)
print("logged jit:", len(logged))
logged.clear()
_, ks = jax.grad(loss, has_aux=True)(1.0)
logged.extend(int(k) for k in ks)
print("logged grad:", len(logged))
logged.clear()
(_, ks), _ = jax.value_and_grad(loss, has_aux=True)(1.0)
logged.extend(int(k) for k in ks)
print("logged value and grad:", len(logged))
