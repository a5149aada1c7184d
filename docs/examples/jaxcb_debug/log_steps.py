import jax

from jaxcb_debug import log_steps, log_steps_print


def log(k, x):
    print(f"log: step {k}: {x}")


x = jax.jit(lambda x0: log_steps(x0, 3, log=log))(0.0)
jax.effects_barrier()
y = jax.jit(lambda x0: log_steps_print(x0, 3))(0.0)  # jax.debug.print, formatted on the host
jax.effects_barrier()
print("final states:", x, y)
