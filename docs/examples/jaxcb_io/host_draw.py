import jax
import numpy as np

from jaxcb_io import host_draw

rng = np.random.default_rng(0)
draw = jax.jit(lambda: host_draw((2,), rng=rng))
print("two draws:", draw(), draw())  # each call advances rng
print("next draw straight from rng:", rng.standard_normal(2).astype(np.float32))
