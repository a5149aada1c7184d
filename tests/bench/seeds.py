"""The seed texts' own code, next to the patterns.

Seed 000 (a pure_callback tutorial) and seed 004 (JAX's early External callbacks guide)
are adapted only as far as current JAX needs: seed 004's ``vectorized=True`` is now
rejected, and its documented successor is ``vmap_method="legacy_vectorized"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from subjects import Subject

from jaxcb_core.probe import Tally, counting


def _seed000(t: Tally) -> Callable[..., Any]:
    # Seed 000, verbatim: the host function converts with np.array (a copy) and leaves
    # y a jax.Array, so `np.sin(x) * y` dispatches back into JAX inside the callback.
    def external_pure_python_computation(x: np.ndarray, y: float) -> np.ndarray:
        if isinstance(x, jax.Array):
            x = np.array(x)
        return np.sin(x) * y + 1.0

    host = counting(external_pure_python_computation, t, "host")

    def jax_function_using_callback(a: Any, b: Any) -> Any:
        output_shape_dtype = jax.ShapeDtypeStruct(a.shape, a.dtype)
        # the seed adds `+ a` to the result; left out so it computes sin_scale
        return jax.pure_callback(host, output_shape_dtype, a, b)

    return jax_function_using_callback


def _seed004(t: Tally) -> Callable[..., Any]:
    # Seed 004 (the external callbacks guide), verbatim except `vectorized=True`.
    def jv(v: Any, z: Any) -> Any:
        v, z = jnp.asarray(v), jnp.asarray(z)
        assert jnp.issubdtype(v.dtype, jnp.integer)
        z = z.astype(jnp.result_type(float, z.dtype))
        _scipy_jv = counting(lambda v, z: scipy.special.jv(v, z).astype(z.dtype), t, "host")
        result_shape_dtype = jax.ShapeDtypeStruct(
            shape=jnp.broadcast_shapes(v.shape, z.shape), dtype=z.dtype
        )
        return jax.pure_callback(
            _scipy_jv, result_shape_dtype, v, z, vmap_method="legacy_vectorized"
        )

    jv = jax.custom_jvp(jv)

    @jv.defjvp
    def _jv_jvp(primals: Any, tangents: Any) -> Any:
        v, z = primals
        _, z_dot = tangents
        jv_minus_1, jv_plus_1 = jv(v - 1, z), jv(v + 1, z)
        djv_dz = jnp.where(v == 0, -jv_plus_1, 0.5 * (jv_minus_1 - jv_plus_1))
        return jv(v, z), z_dot * djv_dz

    return jv


SEEDS: dict[str, Subject] = {
    "sin_scale": Subject(
        id="seed/000",
        label="the pure_callback tutorial's code",
        role="seed",
        mechanism="pure_callback",
        form="seed",
        doc="Its pure_callback: np.array(x) copy inside the callback, y left a jax.Array.",
        build=_seed000,
        order=90,
    ),
    "bessel_jv": Subject(
        id="seed/004",
        label="the External callbacks guide's code",
        role="seed",
        mechanism="pure_callback",
        form="seed",
        doc="Its jv: pure_callback + custom_jvp, vectorized=True -> 'legacy_vectorized'.",
        build=_seed004,
        order=91,
    ),
}
