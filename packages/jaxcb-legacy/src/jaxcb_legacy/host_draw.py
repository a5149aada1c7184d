"""Values from a host `numpy.random.Generator` with `host_callback.call` (JAX ≤ 0.4.30)."""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

_RNG = np.random.default_rng()


def on_host(rng: Any, shape: tuple[int, ...], _: Any) -> np.ndarray:
    """Runs on the host: the next draw of `rng`."""
    return np.asarray(rng.standard_normal(shape), np.float32)


def host_draw(shape: tuple[int, ...], *, rng: Any = None) -> Any:
    import jax.experimental.host_callback as hcb

    fn = functools.partial(on_host, _RNG if rng is None else rng, tuple(shape))
    return hcb.call(
        fn, jnp.zeros((), jnp.int32), result_shape=jax.ShapeDtypeStruct(tuple(shape), jnp.float32)
    )
