# jax.debug.callback given something that is not callable (the number 3), under jit.
import jax

error = line = None
try:
    jax.block_until_ready(jax.jit(lambda x: jax.debug.callback(3, x) or x)(1.0))
    jax.effects_barrier()
except Exception as e:
    error = type(e).__name__
    line = str(e).strip().splitlines()[0]
print("error:", error)
print("error line:", line)
