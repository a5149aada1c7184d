import jax

from jaxcb_io import log_steps


def log(k, x):  # runs on the host after every step, in program order
    print(f"step {k}: {x}")


x = jax.jit(lambda x0: log_steps(x0, 3, log=log))(0.0)
print("final state:", x)
