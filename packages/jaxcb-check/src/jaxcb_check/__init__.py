"""jaxcb-check: find JAX host-callback code that a JAX upgrade breaks, without running it.

The checker is one file, :mod:`jaxcb_check.checker`, that needs only the standard library:
no JAX, no jaxcb package. Run it as ``jaxcb-check PATH ...``, ``python -m jaxcb_check``, or
the file itself (the pre-commit hook does); ``jaxcb check`` runs the same code.
"""

from . import checker
from .checker import *  # noqa: F403

__all__ = checker.__all__
