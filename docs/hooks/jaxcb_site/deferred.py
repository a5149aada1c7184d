"""Environment tables that a page loads when the reader picks their environment.

A page that compares environments (a computation's matrix slice, the summaries on the
home and mechanism pages) has one table per committed matrix file, and the reader sees
one at a time. Writing all of them into the page made a computation page 1.6 MB of HTML,
two thirds of it tables that stay hidden. So only the newest environment's table is in
the page; each other one goes into a small JSON file (``{"html": ...}``) under
``assets/jaxcb/envs/`` in the built site, named by a hash of its content, and the page
script (``docs/javascripts/jaxcb.js``) fetches it when its environment is chosen, or is
the one remembered from an earlier page. The matrix page does the same with its own
per-environment files (``matrixpage``).

A computation page's whole files (each pattern's module, folded below its sections: over
half of the page's HTML when they were in it) are kept the same way: :func:`fold_whole`
moves the body of each ``details`` of class :data:`WHOLE` into its own file, which the page
script loads when the reader opens it.

:func:`keep` (from ``render.env_block``) keeps a deferred table and names it;
:func:`place` (``on_post_page``) turns each name into a URL relative to the page and
writes the file it names into the site.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

__all__ = ["DIR", "SITE", "WHOLE", "files_in", "fold_whole", "keep", "place"]

DIR = "assets/jaxcb/envs"
"""Where the deferred tables go, relative to the built site's root."""

_PREFIX = "jx-deferred:"
SITE = "jx-site:"
"""Prefix of a ``data-src`` path from the site's root (``jx-site:matrix/envs/<key>.json``):
:func:`place` makes it relative to the page, so that the Chinese pages under ``zh/``,
which share the English site's files, find them too."""
_SRC = re.compile(r'data-src="jx-(deferred|site):([^"]+)"')
_PENDING: dict[str, str] = {}

WHOLE = "jx-whole"
"""The class of a folded block whose body loads when it is opened (``code.whole_file``)."""
_WHOLE = re.compile(rf'(<details class="[^"]*\b{WHOLE}\b[^"]*">\s*<summary>.*?</summary>)', re.S)
_DETAILS = re.compile(r"<details\b|</details>")


def fold_whole(output: str) -> str:
    """Each :data:`WHOLE` block's body (after its summary) as a placeholder the page script
    fills from the body's own file when the block is opened."""
    parts, at = [], 0
    for match in _WHOLE.finditer(output):
        if match.start() < at:  # inside a block already folded
            continue
        depth, end = 1, None
        for tag in _DETAILS.finditer(output, match.end()):
            depth += 1 if tag.group() == "<details" else -1
            if depth == 0:
                end = tag.start()
                break
        if end is None:
            raise ValueError(f"a {WHOLE} block without its </details>")
        body = output[match.end() : end]
        parts += [
            output[at : match.end()],
            f'<div class="jx-whole-body" data-src="{keep(body)}"></div>',
        ]
        at = end
    return "".join(parts) + output[at:]


def keep(inner: str) -> str:
    """The ``data-src`` placeholder of a table kept for its own file."""
    doc = json.dumps({"html": inner}, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(doc.encode("utf-8")).hexdigest()[:20]
    _PENDING[digest] = doc
    return _PREFIX + digest


def place(output: str, page_url: str, site_dir: str) -> str:
    """Each placeholder in the finished page as a URL relative to the page (``page_url``,
    as mkdocs gives it: ``computations/sin_scale/``, ``""`` for the home page); a kept
    table's file is written under ``site_dir`` once."""
    up = "../" * page_url.count("/")

    def url(match: re.Match[str]) -> str:
        kind, name = match.groups()
        if kind == "site":
            return f'data-src="{up}{name}"'
        path = Path(site_dir) / DIR / f"{name}.json"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_PENDING[name], encoding="utf-8")
        return f'data-src="{up}{DIR}/{name}.json"'

    return _SRC.sub(url, output)


def files_in(site: Path) -> dict[str, Any]:
    """The deferred tables of a built site, by file name (for tests)."""
    return {
        p.name: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((site / DIR).glob("*.json"))
    }
