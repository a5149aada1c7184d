"""The argument checks of this package's patterns: every check the packages share comes
from `jaxcb_native._checks` (one place for all of them).

Not part of any lesson: each pattern module calls these first, so that every bad argument
is a `TypeError` or `ValueError` naming it, raised before JAX sees it, and the module itself
holds the pattern. Copy this file and `jaxcb_native/_checks.py` with the pattern module
you copy.
"""

from __future__ import annotations

from jaxcb_native._checks import *  # noqa: F403 (the checks every package shares)
