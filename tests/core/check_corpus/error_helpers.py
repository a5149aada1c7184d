"""Turning a condition on traced values into an error, three ways."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def _raise_if(flag, message):
    if np.any(flag):
        raise ValueError(str(message))  # expect: JXC010
    return np.zeros((), np.bool_)


def error_if_pure(x, pred, message="check failed"):
    """The tempting version: a pure callback that raises."""
    ok = jax.pure_callback(
        lambda f: _raise_if(f, message),
        jax.ShapeDtypeStruct((), jnp.bool_),
        pred,
        vmap_method="broadcast_all",
    )
    return x, ok


def _check_finite(x):
    assert np.all(np.isfinite(x)), "non-finite value"  # expect: JXC011
    return x


def finite_or_fail(x):
    return jax.pure_callback(  # expect: JXC007
        _check_finite, jax.ShapeDtypeStruct(x.shape, x.dtype), x
    )


def _host_error(flag):
    if flag:
        raise RuntimeError("the host says no")
    return np.zeros((), np.int32)


def error_if_io(pred):
    """The better version: an io_callback may fail, and its error reaches the caller."""
    return io_callback(_host_error, jax.ShapeDtypeStruct((), jnp.int32), pred)
