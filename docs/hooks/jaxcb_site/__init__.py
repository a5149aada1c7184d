"""Build-time helpers for the jaxcb site (used by ``docs/hooks/jaxcb.py``).

Everything the site says about results is generated here from data: the
matrix files under ``docs/data/matrix/`` and the installed mechanism packages'
registries (``jaxcb_core.mechanisms.discover()``). Nothing in this package types
a result by hand.
"""

import sys
from pathlib import Path

# ``jaxcb_core.schema`` (pydantic and the standard library) is imported from the source
# tree: the docs env installs no jaxcb package. Set before any module of this package loads.
_CORE = Path(__file__).resolve().parents[3] / "packages" / "jaxcb-core" / "src"
if str(_CORE) not in sys.path:
    sys.path.insert(0, str(_CORE))
