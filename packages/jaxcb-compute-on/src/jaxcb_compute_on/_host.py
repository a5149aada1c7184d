"""`on_host(f)`: `f`'s operations marked to run on the host, in the form this JAX takes.

`jax.experimental.compute_on` changed form between releases. JAX 0.12 wraps a function
and asks where each result should live (`out_memory_spaces=`; `jax.memory.Space.Device`
keeps it in device memory). Earlier releases took the compute type alone and were used
as a context manager around the operations. Both mark every operation of `f` with
`_xla_compute_type = "host"` in the lowered program.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import jax
from jax.experimental.compute_on import compute_on

__all__ = ["on_host"]

# --8<-- [start:pattern]
WRAPS = "out_memory_spaces" in inspect.signature(compute_on).parameters  # JAX 0.12 and later


def on_host(f: Callable[..., Any]) -> Callable[..., Any]:
    """`f`, with every operation it traces marked to run on the host's processor."""
    if WRAPS:
        space = jax.memory.Space.Device  # one space for every result: results stay on device
        return compute_on(compute_type="device_host", out_memory_spaces=space)(f)

    @functools.wraps(f)
    def marked(*args: Any) -> Any:
        with compute_on("device_host"):  # type: ignore[call-arg]
            return f(*args)

    return marked


# --8<-- [end:pattern]
