# A counter-example: pure_callback used for an effect. Compare the io_callback tab.
import jax

from jaxcb_pure import log_steps

seen = []
x = jax.jit(lambda x0: log_steps(x0, 3, log=lambda k, x: seen.append(int(k))))(0.0)
print("final state:", x)
print("steps the host saw:", seen)  # the result of each call is unused: JAX may drop them
