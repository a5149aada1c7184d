# jax.debug.callback's two forms: options in a first call and the callback in a second
# (jax.debug.callback(ordered=True)(fn, x)), and options beside the callback in one call.
import warnings

import jax
import jax.numpy as jnp

seen = []


@jax.jit
def two_calls(x):
    jax.debug.callback(ordered=True)(lambda x: seen.append(("two calls", float(x))), x)
    return x + 1


@jax.jit
def one_call(x):
    jax.debug.callback(lambda x: seen.append(("one call", float(x))), x, ordered=True)
    return x + 1


for name, f in (("two calls", two_calls), ("one call", one_call)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            jax.block_until_ready(f(jnp.float32(1.5)))
            jax.effects_barrier()
            print(f"{name}:", "works")
            print(f"{name} host received:", [v for n, v in seen if n == name])
        except Exception as e:
            print(f"{name}:", type(e).__name__)
            print(f"{name} message:", str(e).splitlines()[0])
    for w in caught:
        print(f"{name} warning:", w.category.__name__, str(w.message).splitlines()[0])
