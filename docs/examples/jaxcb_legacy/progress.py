# On JAX 0.4.30: host_callback.id_tap under lax.cond. Do not copy: see jaxcb_io / jaxcb_debug.
import jax
import jax.experimental.host_callback as hcb

from jaxcb_legacy.progress import progress


def report(k, x):
    print(f"step {k}: {x:.4f}")


x = jax.jit(lambda x0: progress(x0, 6, 2, report=report))(0.0)
hcb.barrier_wait()
print("final state:", x)
