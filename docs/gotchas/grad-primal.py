# A jax.debug.callback inside a function differentiated with jax.grad.
# It observes the forward pass: the value of x, not the gradient.
import jax

seen = []


def f(x):
    jax.debug.callback(lambda v: seen.append(float(v)), x)
    return x**2


jax.grad(f)(3.0)
jax.effects_barrier()
print("host calls:", len(seen))
print("values:", ", ".join(f"{v:g}" for v in seen))  # x, not the gradient
