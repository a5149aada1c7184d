"""jaxcb core: the computation catalog, the transform catalog and the support-matrix runner.

Mechanism-free: it never imports a mechanism package by name. Mechanism packages
register variants under the entry point group ``jaxcb.mechanisms``.
"""

from .catalog import CATALOG, Computation, by_name
from .mechanisms import Variant, discover

__all__ = ["CATALOG", "Computation", "Variant", "by_name", "discover"]
__version__ = "0.1.0"
