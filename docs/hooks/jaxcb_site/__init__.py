"""Build-time helpers for the jaxcb site (used by ``docs/hooks/jaxcb.py``).

Everything the site says about results is generated here from data: the
matrix files under ``docs/data/matrix/`` and the installed mechanism packages'
registries (``jaxcb_core.mechanisms.discover()``). Nothing in this package types
a result by hand.
"""

import sys
from pathlib import Path

# ``jaxcb_core.schema`` (pydantic and the standard library) and ``jaxcb_check`` (the standard
# library) are imported from the source tree: the docs env installs no jaxcb package. Set
# before any module of this package loads.
_PACKAGES = Path(__file__).resolve().parents[3] / "packages"
for _src in (_PACKAGES / "jaxcb-core" / "src", _PACKAGES / "jaxcb-check" / "src"):
    if str(_src) not in sys.path:
        sys.path.insert(0, str(_src))

# MkDocs puts sys.path back as it was once the hook has loaded: what the pages import later
# (``jaxcb check``'s rules) must be imported now.
import jaxcb_check.checker  # noqa: E402, F401
