"""The io_callback rows of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import numpy as np
from jax.experimental import io_callback

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


NAMES = _patterns()


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
                    # jaxcb:expect io_callback/ordered * vmap status=error
                    "io_callback(ordered=True): host calls keep program order; vmap raises."
                    if ordered
                    # jaxcb:expect io_callback/unordered * jit_unused status=ok effects.verdict=exact
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
