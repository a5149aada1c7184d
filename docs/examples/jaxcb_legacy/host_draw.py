# On JAX 0.4.30: host_callback.call reading host state. Do not copy: see jaxcb_io.
import jax
import numpy as np

from jaxcb_legacy.host_draw import host_draw

rng = np.random.default_rng(0)
draw = jax.jit(lambda: host_draw((2,), rng=rng))
print("two draws:", draw(), draw())
