import jax

from jaxcb_io import progress


def report(k, x):  # on the host, only on the steps where k % every == 0
    print(f"step {k}: {x:.4f}")


x = jax.jit(lambda x0: progress(x0, 6, 2, report=report))(0.0)
print("final state:", x)
