"""The one place that knows whether the installed JAX has `colocated_python`."""

from __future__ import annotations

import functools
import importlib
import types
from collections.abc import Callable
from typing import Any

import jax

__all__ = ["colocated_python", "near_devices"]

colocated_python: types.ModuleType | None
try:  # it imports cloudpickle, to send the function to the host
    colocated_python = importlib.import_module("jax.experimental.colocated_python")
except ImportError:  # JAX 0.4.30 has no colocated_python
    colocated_python = None


def near_devices(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, run as Python on the host of the devices its `jax.Array` arguments live on."""
    if colocated_python is not None:
        return colocated_python.colocated_python(fn)

    @functools.wraps(fn)
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"jax.experimental.colocated_python is not in JAX {jax.__version__}: "
            "upgrade JAX to use jaxcb_colocated"
        )

    return missing
