"""One search index per language: the English site searches its pages, the Chinese site its own.

mkdocs-static-i18n builds the Chinese site under ``zh/`` after the English one and merges
every language's entries into the one ``search/search_index.json`` that Material loads from
the site's root (``config.base``): an English reader searching ``effects_barrier`` got the
Chinese lesson first. Material fetches the index from its ``config.base``, so:

- :func:`mark` (``on_page_markdown``) keeps out of a language's search the pages that it
  shows in English for want of a translation (Material's ``search: exclude``): they are
  found on the English site, and a Chinese reader's results are Chinese pages;
- :func:`split` (``on_post_build``, after the i18n plugin) writes the English entries alone
  to ``search/search_index.json`` and each other language's entries, taken from that
  language's own build, to ``<lang>/search/search_index.json``, with locations relative to
  ``<lang>/``;
- :func:`rebase` (``on_post_page``) sets ``base`` in the ``__config`` of each page under
  ``<lang>/`` to that language site's root, so that its search loads its own index and its
  results link pages of the same site. Nothing else in Material reads ``config.base`` on
  this site: instant navigation and versions are off, and the hook drops the
  ``<link rel="alternate">`` tags (whose sitemaps the language switch would fetch).

Chinese text is cut into words by jieba at build time (Material's search plugin does it
where jieba is installed, separating words with U+200B, which the separator in mkdocs.yml
includes).
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

__all__ = ["SearchSplitError", "languages", "mark", "quiet", "read", "rebase", "split"]

_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)
_BASE = re.compile(r'"base": "[^"]*"')


class SearchSplitError(RuntimeError):
    pass


def quiet() -> None:
    """jieba's log says how long its dictionary took to load, on every build: warnings only."""
    logging.getLogger("jieba").setLevel(logging.WARNING)


def languages(config: Any) -> list[str]:
    """The built languages other than the default one: each is a site under ``<lang>/``."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return []
    return [lang.locale for lang in i18n.config.languages if lang.build and not lang.default]


def _language_of(url: str, langs: list[str]) -> str | None:
    return next((lang for lang in langs if url.startswith(f"{lang}/")), None)


def mark(page: Any, langs: list[str]) -> None:
    """Keep ``page`` out of its language's index if that language shows it untranslated."""
    lang = _language_of(page.url, langs)
    if lang is not None and not page.file.src_uri.endswith(f".{lang}.md"):
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}


def rebase(output: str, page_url: str, langs: list[str]) -> str:
    """``output`` with Material's ``config.base`` at the root of the page's language site."""
    lang = _language_of(page_url, langs)
    if lang is None:
        return output
    m = _CONFIG.search(output)
    if m is None or not _BASE.search(m.group(2)):
        raise SearchSplitError(
            f"{page_url}: no Material __config with a base: its search cannot be pointed at "
            f"{lang}/search/search_index.json (has the theme's base.html changed?)"
        )
    depth = page_url.count("/") - 1  # "zh/learn/04-effects/" is two folders below zh/
    base = "../" * depth if depth > 0 else "./"
    inner = _BASE.sub(f'"base": "{base}"', m.group(2), count=1)
    return output[: m.start(2)] + inner + output[m.end(2) :]


def _search_plugin(config: Any) -> Any:
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    if plugin is None or not hasattr(plugin, "search_index"):
        raise SearchSplitError("the search plugin (material/search) is not loaded")
    return plugin


def _write(plugin: Any, path: Path, entries: list[dict[str, Any]], lang: list[str]) -> None:
    index = type(plugin.search_index)(**{**plugin.config, "lang": lang})
    index.entries = entries
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(index.generate_search_index(None), encoding="utf-8")


def split(config: Any) -> list[Path]:
    """Write each language's index (see the module's docstring); the paths written.

    Runs at the end of each language's build: the i18n plugin builds the other languages
    inside the default language's ``on_post_build``, whose entries (all languages, the
    duplicates removed) the search plugin holds when the default build reaches this."""
    langs = languages(config)
    if not langs:
        return []
    plugin = _search_plugin(config)
    entries: list[dict[str, Any]] = plugin.search_index.entries
    site = Path(config.site_dir)
    own = [e for e in entries if _language_of(e["location"], langs) is None]
    written = []
    if own:  # the default language's build, with every language's entries merged in
        default = [lang for lang in plugin.config.lang if lang not in langs] or ["en"]
        path = site / "search" / "search_index.json"
        _write(plugin, path, own, default)
        written.append(path)
        return written
    for lang in langs:  # a language's own build: its translated pages, under its prefix
        mine = [
            {**e, "location": e["location"][len(lang) + 1 :]}
            for e in entries
            if _language_of(e["location"], langs) == lang
        ]
        if mine:
            path = site / lang / "search" / "search_index.json"
            _write(plugin, path, mine, list(plugin.config.lang))
            written.append(path)
    return written


def read(site: Path, lang: str | None = None) -> dict[str, Any]:
    """A built site's index for ``lang`` (the default language's for ``None``), for tests."""
    path = site / (f"{lang}/" if lang else "") / "search" / "search_index.json"
    return json.loads(path.read_text(encoding="utf-8"))
