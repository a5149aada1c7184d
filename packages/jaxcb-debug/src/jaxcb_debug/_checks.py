"""The argument checks of this package's patterns: every check the packages share comes
from `jaxcb_native._checks` (one place for all of them), and this file adds the ones only
this package needs.

Not part of any lesson: each pattern module calls these first, so that every bad argument
is a `TypeError` or `ValueError` naming it, raised before JAX sees it, and the module itself
holds the pattern. Copy this file and `jaxcb_native/_checks.py` with the pattern module
you copy.
"""

from __future__ import annotations

import jax

from jaxcb_native._checks import *  # noqa: F403 (the checks every package shares)
from jaxcb_native._checks import flag, sink


def one_device(fn: str, ordered: bool, arrays: dict[str, jax.Array]) -> None:
    """`ordered=True` needs one device: say so for a sharded array before JAX does."""
    for name, x in arrays.items():
        if ordered and not isinstance(x, jax.core.Tracer) and len(x.devices()) > 1:
            raise ValueError(
                f"{fn}: ordered=True needs {name} on one device, got {name} on "
                f"{len(x.devices())} devices"
            )


def observer(
    fn: str, arrays: dict[str, jax.Array], report: object, ordered: object, partitioned: object
) -> tuple[bool, bool]:
    """An observer's options, in this order: `report` callable or None, `ordered` a bool
    (`True` only with `arrays` on one device), `partitioned` a bool."""
    sink(fn, "report", report)
    ordered = flag(fn, "ordered", ordered)
    one_device(fn, ordered, arrays)
    return ordered, flag(fn, "partitioned", partitioned)
