# jax.debug.print with a format field it was not given: a missing name, a missing position.
import jax

name = name_line = positional = positional_line = None
try:
    jax.jit(lambda x: jax.debug.print("{y}", x=x) or x)(1.0)  # no y
    jax.effects_barrier()
except Exception as e:
    name, name_line = type(e).__name__, str(e).strip().splitlines()[0]
try:
    jax.jit(lambda x: jax.debug.print("{} {}", x) or x)(1.0)  # one value for two fields
    jax.effects_barrier()
except Exception as e:
    positional, positional_line = type(e).__name__, str(e).strip().splitlines()[0]
print("missing name:", name)
print("missing name line:", name_line)
print("missing positional:", positional)
print("missing positional line:", positional_line)
