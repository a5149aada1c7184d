import jax

from jaxcb_debug import progress, progress_print


def report(k, x):  # only on the steps where k % every == 0
    print(f"report: step {k}: {x:.4f}")


x = jax.jit(lambda x0: progress(x0, 6, 2, report=report))(0.0)
jax.effects_barrier()
y = jax.jit(lambda x0: progress_print(x0, 6, 3))(0.0)
jax.effects_barrier()
print("final states:", x, y)
