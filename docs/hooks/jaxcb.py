"""mkdocs hook: the jaxcb site's generated content.

Pages say *where* generated content goes with one-line directives,
``<!-- jaxcb:NAME args -->``, alone on a line. This hook replaces each with
Markdown/HTML built from the matrix files (``docs/data/matrix/*.json``) and the
installed packages' registries (``jaxcb_core.mechanisms.discover()``). See
``jaxcb_site.directives`` for the list. An unknown directive, a missing data key,
a package module without a ``pattern`` section or a computation without a page
fails the build.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from jaxcb_site import code, data, directives
from jaxcb_site.markers import AnnotateExtension

log = logging.getLogger("mkdocs.hooks.jaxcb")
# Pages named in the nav that do not exist yet (written by someone else, e.g.
# performance.md): left out of the nav, and links to them become plain text.
_missing: set[str] = set()


def _prune_nav(nav: Any, docs_dir: Path) -> Any:
    """Drop nav entries whose page does not exist yet (performance.md while it is written)."""
    if isinstance(nav, list):
        out = [_prune_nav(item, docs_dir) for item in nav]
        return [item for item in out if item is not None]
    if isinstance(nav, dict):
        out = {k: _prune_nav(v, docs_dir) for k, v in nav.items()}
        return out if all(v is not None and v != [] for v in out.values()) else None
    if isinstance(nav, str) and nav.endswith(".md") and not (docs_dir / nav).is_file():
        log.info("nav: %s does not exist yet, left out", nav)
        _missing.add(nav)
        return None
    return nav


def on_config(config: Any) -> Any:
    root = str(data.ROOT)
    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [root]  # absolute: the build works from any working directory
    snippets["check_paths"] = True
    config.markdown_extensions.append(AnnotateExtension())
    _missing.clear()
    if config.nav:
        config.nav = _prune_nav(config.nav, Path(config.docs_dir))
    return config


def on_files(files: Any, config: Any) -> Any:
    from jaxcb_core.catalog import CATALOG

    missing = [
        c.name for c in CATALOG if files.get_file_from_path(f"computations/{c.name}.md") is None
    ]
    if missing:
        raise directives.DirectiveError(f"no page docs/computations/<name>.md for {missing}")
    code.registry()  # import every mechanism package now: a broken one fails early
    return files


def _unlink_missing(markdown: str, src_uri: str) -> str:
    for target in _missing:
        link = re.escape(directives.rel(src_uri, target))
        markdown = re.sub(rf"\[([^\]]+)\]\({link}(#[^)]*)?\)", r"\1 (not written yet)", markdown)
    return markdown


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    markdown = directives.expand(markdown, page.file.src_uri)
    return _unlink_missing(markdown, page.file.src_uri)
