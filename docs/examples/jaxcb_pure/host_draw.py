# A counter-example: pure_callback reading host state. Compare the io_callback tab.
import jax
import numpy as np

from jaxcb_pure import host_draw

rng = np.random.default_rng(0)
print("two draws:", host_draw((2,), rng=rng), host_draw((2,), rng=rng))
batch = jax.vmap(lambda _: host_draw((2,), rng=rng))(np.arange(3))
print("vmap over 3:\n", batch)  # no batched operand: one draw, repeated
