# checkify.check inside jax.jit without checkify.checkify around the function: JAX refuses
# to trace it, unless the flag jax_experimental_unsafe_xla_runtime_errors is on, which makes
# the compiled program raise the check's error when it runs.
import jax
import jax.numpy as jnp
from jax.experimental import checkify


def safe_log(x):
    checkify.check(jnp.all(x > 0), "x must be positive, got {x}", x=x)
    return jnp.log(x)


messages = []  # the line of each error that carries the check's message ("" if none)
callbacks = []  # whether each error says it came from a host callback


def outcome(f, x):
    """What calling f(x) did: "ran", or the type of the error it raised."""
    try:
        f(x)
        return "ran"
    except Exception as e:
        messages.append(next((ln for ln in str(e).splitlines() if "must be positive" in ln), ""))
        callbacks.append("CpuCallback" in str(e))  # how XLA reports a failed host callback
        return type(e).__name__


bad = jnp.array([1.0, -1.0])
print("jit without the flag:", outcome(jax.jit(safe_log), bad))
messages.clear()  # that error is JAX refusing to trace the check, not the check
callbacks.clear()

jax.config.update("jax_experimental_unsafe_xla_runtime_errors", True)
print("jit with the flag:", outcome(jax.jit(safe_log), bad))
print("eager with the flag:", outcome(safe_log, bad))
print("vmap with the flag:", outcome(jax.vmap(safe_log), bad))
print("grad with the flag:", outcome(jax.grad(lambda x: safe_log(x).sum()), bad))
print("every error has the message of the check:", len(messages) == 4 and all(messages))
print("the jit error came from a host callback:", callbacks[0])
print("the message under vmap:", messages[2].removeprefix("JaxRuntimeError: "))
print("good input with the flag:", jax.jit(safe_log)(jnp.array([1.0, 2.0])))
