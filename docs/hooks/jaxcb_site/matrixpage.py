"""The matrix page: every committed matrix file, small enough to load on a phone.

One table per environment would put every cell's details (error line, host calls, test id)
of every file into one page (2.9 MB for three files). Instead the page carries the newest
environment's table with bare cells (glyph and host-call count), and each environment gets
a generated JSON file beside the page, ``matrix/envs/<key>.json``: its table and each cell's
details. The Chinese page's tables have their own files, ``matrix/envs/zh/<key>.json``, with
the headings, captions and filters in Chinese (``i18n``). The page script
(``docs/javascripts/jaxcb.js``) loads a file when its environment is chosen, or when a cell
is clicked, tapped or activated from the keyboard, and shows that cell's details in the same
box the other tables use.

The mechanism filter has one entry per mechanism family (every variant of it) with the
variants nested under it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from . import deferred, render
from .data import Matrix, load_matrices
from .i18n import WORDS, say
from .render import GLYPH, esc

ENVS = "matrix/envs"  # generated files, beside the page (site/matrix/envs/<key>.json)


def env_path(m: Matrix, lang: str = "en") -> str:
    """The environment file's path in the site: ``matrix/envs/<key>.json`` for the English
    page, ``matrix/envs/<lang>/<key>.json`` for another language's."""
    return f"{ENVS}/{m.key}.json" if lang == "en" else f"{ENVS}/{lang}/{m.key}.json"


def env_url(m: Matrix, lang: str = "en") -> str:
    """The environment file's path from the site's root, made relative to the page (the
    English ``matrix/`` or the Chinese ``zh/matrix/``) when it is written (``deferred``)."""
    return f"{deferred.SITE}{env_path(m, lang)}"


def cell_td(cell: dict[str, Any] | None) -> str:
    """A bare cell: the details come from the environment file."""
    if cell is None:
        return '<td class="jx-cell jx-missing">·</td>'
    status = cell["status"]
    calls = cell.get("host_calls")
    badge = f'<sub class="jx-calls">{calls}</sub>' if calls is not None and status != "n/a" else ""
    cls = "na" if status == "n/a" else status
    return f'<td class="jx-cell jx-{cls}"><a class="jx-link" href="#">{GLYPH[render.shown(cell)]}{badge}</a></td>'


def table(m: Matrix, lang: str = "en") -> str:
    """Variant × computation rows, transform columns, bare cells."""
    return render.matrix_table(m, cell_td, lang)


def env_file(m: Matrix, lang: str = "en") -> str:
    """One environment's file: its table and every cell's details and test id."""
    doc = {
        "key": m.key,
        "label": m.label_in(lang),
        "transforms": [t["id"] for t in m.transforms],
        "html": table(m, lang),
        "cells": {
            "|".join(key): ["\n".join(render.cell_lines(c, lang)), c["test"]]
            for key, c in m.cells.items()
        },
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def add_files(files: Any, config: Any) -> Any:
    """The environment files of each language, as generated files (nothing written into
    docs/)."""
    from mkdocs.structure.files import File

    for m in load_matrices():
        for lang in WORDS:
            files.append(File.generated(config, env_path(m, lang), content=env_file(m, lang)))
    return files


def filters(ms: Sequence[Matrix], lang: str = "en") -> str:
    """One mechanism entry per family, its variants nested under it; one per computation."""
    families: dict[str, dict[str, str]] = {}
    comps: list[str] = []
    for m in ms:
        for v in m.variants:
            families.setdefault(v["mechanism"], {}).setdefault(v["id"], v["label"])
        comps += [c["name"] for c in m.computations if c["name"] not in comps]
    groups = []
    for mech, variants in families.items():
        n = len(variants)
        every = say(lang, "filter-variants" if n != 1 else "filter-variant", mechanism=mech, n=n)
        opts = [f'<option value="m:{esc(mech)}">{esc(every)}</option>']
        if n > 1:
            opts += [
                f'<option value="v:{esc(vid)}">{esc(label)} ({esc(vid.split("/", 1)[-1])})</option>'
                for vid, label in variants.items()
            ]
        groups.append(f'<optgroup label="{esc(mech)}">{"".join(opts)}</optgroup>')
    copts = "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in comps)
    every = esc(say(lang, "filter-all"))
    return (
        '<p class="jx-filters">'
        f"<label>{esc(say(lang, 'filter-mechanism'))} "
        '<select class="jx-filter" data-filter="mechanism">'
        f'<option value="">{every}</option>{"".join(groups)}</select></label> '
        f"<label>{esc(say(lang, 'filter-computation'))} "
        '<select class="jx-filter" data-filter="computation">'
        f'<option value="">{every}</option>{copts}</select></label>'
        "</p>"
    )


def page(ms: Sequence[Matrix], label: str = "JAX version / platform", lang: str = "en") -> str:
    blocks = []
    for i, m in enumerate(ms):
        inner = table(m, lang) if i == 0 else render.loading(m, lang)
        hidden = "" if i == 0 else " hidden"
        blocks.append(
            f'<div class="jx-env" data-env="{esc(m.key)}" data-src="{esc(env_url(m, lang))}"'
            f"{hidden}>{inner}</div>"
        )
    return (
        '<div class="jx-matrix-page" data-search-exclude>'
        + render.env_switch(ms, label=label, lang=lang)
        + filters(ms, lang)
        + render.legend(lang)
        + "".join(blocks)
        + "</div>"
    )
