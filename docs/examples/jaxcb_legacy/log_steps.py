# On JAX 0.4.30: host_callback.id_tap, removed in 0.4.35. Do not copy: see jaxcb_io / jaxcb_debug.
import jax
import jax.experimental.host_callback as hcb

from jaxcb_legacy.log_steps import log_steps


def log(k, x):
    print(f"step {k}: {x}")


x = jax.jit(lambda x0: log_steps(x0, 3, log=log))(0.0)
hcb.barrier_wait()  # now jax.effects_barrier()
print("final state:", x)
