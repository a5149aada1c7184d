"""What the families of directives share: the error a directive raises, a link from one
page to another, the notice where no matrix file exists, the catalog as the files record it.
"""

from __future__ import annotations

import posixpath
from typing import Any

from . import data


class DirectiveError(ValueError):
    pass


def rel(src_uri: str, target: str) -> str:
    """A link from the page ``src_uri`` to the docs file ``target``."""
    return posixpath.relpath(target, posixpath.dirname(src_uri) or ".")


def catalog() -> dict[str, dict[str, Any]]:
    """The computations, as the committed matrix files record them."""
    return {c["name"]: c for c in data.computations()}


def no_data() -> str:
    """The notice a matrix directive shows where no matrix file is committed."""
    return (
        '!!! warning "No measured data yet"\n\n'
        "    No matrix file exists under `docs/data/matrix/`. Run `jaxcb matrix --write` "
        "and rebuild the site."
    )
