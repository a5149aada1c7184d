# A jax.debug.callback whose host function raises KeyError, under jit: what the caller sees
# (after jax.effects_barrier), and what JAX writes to its "jax" logger (kept with a handler
# we remove again).
import logging

import jax
import jax.numpy as jnp

records = []


class Keep(logging.Handler):
    def emit(self, record):
        records.append(record)


def host(x):
    raise KeyError("no such key")


@jax.jit
def f(x):
    jax.debug.callback(host, x)
    return x + 1


keep = Keep(level=logging.DEBUG)
logging.getLogger("jax").addHandler(keep)
caught = None
try:
    jax.block_until_ready(f(jnp.ones(3)))
    jax.effects_barrier()
except Exception as e:
    caught = type(e).__name__
finally:
    logging.getLogger("jax").removeHandler(keep)

errors = [r for r in records if r.levelno >= logging.ERROR]
print("caller sees:", caught)
print("log records at error:", len(errors))
print("logger:", errors[0].name if errors else None)
print("log has traceback:", bool(errors and errors[0].exc_info))
print("log names keyerror:", any(r.exc_info[0] is KeyError for r in errors if r.exc_info))
