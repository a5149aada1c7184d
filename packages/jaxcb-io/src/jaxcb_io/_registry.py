"""The io_callback rows of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

import jax
import numpy as np
from jax.experimental import io_callback

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec

NAMES = (
    "sin_scale",
    "sum_mean",
    "bessel_jv",
    "expm",
    "cubic_root",
    "log_steps",
    "host_draw",
    "progress",
)


def _bare_call(host: Any, result_type: Any, *args: Any, ordered: bool = False) -> Any:
    """The minimal forms the benchmarks compare the patterns with."""
    return io_callback(host, result_type, *args, ordered=ordered)


def _bare_send(host: Any, *args: Any, ordered: bool = True) -> None:
    io_callback(host, None, *args, ordered=ordered)


def _bare_noop(x: Any) -> Any:
    return io_callback(np.asarray, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=False)


def variants() -> list[VariantSpec]:
    modules = {n: importlib.import_module(f"jaxcb_io.{n}") for n in NAMES}
    out: list[VariantSpec] = []
    for i, ordered in enumerate((False, True)):
        key = "ordered" if ordered else "unordered"
        out.append(
            {
                "id": f"io_callback/{key}",
                "mechanism": "io_callback",
                "label": f"io_callback, {key}",
                "doc": (
                    "io_callback(ordered=True): host calls keep program order; vmap raises."
                    if ordered
                    else "io_callback(ordered=False): kept when its result is unused; no order promised."
                ),
                "package": "jaxcb_io",
                "order": 40 + i,
                "implementations": {
                    n: functools.partial(getattr(m, n), ordered=ordered) for n, m in modules.items()
                },
                "modules": modules,
                "unsupported": {},
                "probe": dict.fromkeys(NAMES, ("on_host",)),
                "bare": {"call": _bare_call, "send": _bare_send, "noop": _bare_noop},
            }
        )
    return out
