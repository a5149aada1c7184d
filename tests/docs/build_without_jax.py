"""Run ``mkdocs`` with JAX, jaxlib, SciPy and every mechanism package made unimportable.

The site is built from the committed data files and the source files only; this runner
proves it on every build the tests make, whatever the environment has installed
(the docs tox env installs none of them either). Usage: ``python build_without_jax.py
build --strict --site-dir DIR``.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from typing import Any

BLOCKED = ("jax", "jaxlib", "scipy", "jaxcb_native", "jaxcb_pure", "jaxcb_io", "jaxcb_debug")
BLOCKED_PREFIX = "jaxcb_"  # every mechanism package
ALLOWED = ("jaxcb_core", "jaxcb_site", "jaxcb_check")  # the checker: the standard library only


class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Sequence[str] | None = None, target: Any = None) -> None:
        top = name.split(".")[0]
        if top in BLOCKED or (top.startswith(BLOCKED_PREFIX) and top not in ALLOWED):
            raise ImportError(f"the site build must not import {name}")
        if name in ("jaxcb_core.catalog", "jaxcb_core.mechanisms", "jaxcb_core.matrix"):
            raise ImportError(f"the site build must not import {name} (it needs JAX or NumPy)")


def main(argv: list[str]) -> None:
    sys.meta_path.insert(0, Blocker())
    from mkdocs.__main__ import cli

    sys.argv = ["mkdocs", *argv]
    cli()


if __name__ == "__main__":
    main(sys.argv[1:])
