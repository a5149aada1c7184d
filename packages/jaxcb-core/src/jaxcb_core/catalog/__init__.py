"""The computation catalog: what every mechanism package implements.

Each :class:`~jaxcb_core.catalog.computation.Computation` names one computation and carries
everything a harness needs to check an implementation of it without knowing which mechanism
made it: deterministic inputs for both float widths, a NumPy/SciPy reference, tolerances,
an analytic derivative reference where the computation is differentiable, and for
side-effect computations the host records that must arrive.

:mod:`.computation` defines the entry; :mod:`.pure` holds the pure computations and
:mod:`.effects` the effects and the impure input, each in a section of its own (its inputs,
references and floors), with its entry below them. :data:`CATALOG` lists them all, in the
order of the matrix's rows.

The catalog is mechanism-free: it imports NumPy and SciPy only, never JAX.
"""

from __future__ import annotations

from .computation import Computation, Record
from .effects import EFFECTS, log_step
from .pure import PURE, cubic_root_scalar

__all__ = [
    "CATALOG",
    "Computation",
    "Record",
    "by_name",
    "cubic_root_scalar",
    "log_step",
]

CATALOG: tuple[Computation, ...] = (*PURE, *EFFECTS)


def by_name(name: str) -> Computation:
    """The catalog entry called ``name``."""
    for c in CATALOG:
        if c.name == name:
            return c
    raise KeyError(f"no computation named {name!r}; known: {[c.name for c in CATALOG]}")
