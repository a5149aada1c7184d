"""mkdocs hook: the jaxcb site's generated content, one engine for every page.

Pages say *where* generated content goes with one-line directives,
``<!-- jaxcb:NAME args -->``, alone on a line. This hook replaces each with
Markdown/HTML built from the committed data (``docs/data/matrix/*.json``,
``docs/data/bench/*.json``, loaded through ``jaxcb_core.schema``) and the package source
files; it imports neither JAX nor a mechanism package. See ``jaxcb_site.directives`` for
the list. An unknown directive, a missing data key, a package module without a
``pattern`` section or a computation without a page fails the build.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.plugins import event_priority

from jaxcb_site import (
    apilinks,
    code,
    data,
    deferred,
    directives,
    glossary,
    lessons,
    matrixpage,
    perf,
    prose,
    searchlang,
    stash,
    statements,
)
from jaxcb_site.markers import AnnotateExtension


def on_config(config: Any) -> Any:
    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(data.ROOT)]  # absolute: the build works from any directory
    snippets["check_paths"] = True
    code.REPOSITORY["url"] = config.get("repo_url")  # the code tabs link each file on GitHub
    lessons.REPOSITORY["url"] = config.get("repo_url")  # each lesson's "Open in Colab"
    config.markdown_extensions.append(AnnotateExtension())
    searchlang.quiet()  # the Chinese pages' words: jieba, through Material's search plugin
    return config


# After mkdocs-static-i18n's own on_files (priority -100), which sorts the files of each
# language and cannot take the files generated here (no source path).
@event_priority(-110)
def on_files(files: Any, config: Any) -> Any:
    missing = [
        c["name"]
        for c in data.computations()
        if files.get_file_from_path(f"computations/{c['name']}.md") is None
    ]
    if missing:
        raise directives.DirectiveError(f"no page docs/computations/<name>.md for {missing}")
    for pkg in code.packages():  # every package's tabs resolve now: a broken one fails early
        for c in data.computations():
            code.tab(pkg, c["name"])
    problems = glossary.check()
    if problems:
        raise directives.DirectiveError(f"the glossaries disagree: {'; '.join(problems)}")
    problems = statements.check()  # docstrings, READMEs, code notes: held to the data
    if problems:
        raise directives.DirectiveError(
            "sentences that the data does not show:\n  " + "\n  ".join(problems)
        )
    problems = prose.check()  # absolute sentences: a directive, a cited source or a reason
    if problems:
        raise directives.DirectiveError(
            "absolute sentences held by nothing:\n  " + "\n  ".join(problems)
        )
    matrixpage.add_files(files, config)  # the matrix page's per-environment files
    code.add_files(files, config)  # every pattern's files, to download from its code tab
    return perf.add_plots(files, config)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    # a page that the Chinese site shows in English is searched on the English site
    searchlang.mark(page, searchlang.languages(config))
    # API names link to the JAX docs, jax-changelog:VERSION to its release (docs/data/jax-api.json)
    # the big generated tables wait outside Markdown, the glossary and search (stash.py)
    return stash.keep(apilinks.link(directives.expand(markdown, page.file.src_uri)))


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    # The computation pages' whole files load when opened (deferred.py): taken out here,
    # before the search plugin reads the page, so the index holds the sections, not the files.
    html = deferred.fold_whole(html)
    # each glossary term's first use on a reader page links to its definition
    return glossary.link_terms(html, page.file.src_uri, page.url)


ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


def on_post_page(output: str, page: Any, config: Any) -> str:
    # The language switcher links each page to its translation (mkdocs-static-i18n). Material
    # also reads every <link rel="alternate"> as the root of a language site and fetches
    # "sitemap.xml" beside it: for a page's own alternates that is a 404 per language and page.
    # The switcher's links stay; the head links go.
    # The hidden environments' tables: files beside the site, fetched on demand (deferred.py)
    page_html = deferred.place(stash.restore(output), page.url, config.site_dir)
    # a page under zh/ searches the Chinese site's own index (searchlang.py)
    page_html = searchlang.rebase(page_html, page.url, searchlang.languages(config))
    return ALTERNATE.sub("", page_html)


# After mkdocs-static-i18n's on_post_build (priority -100), which builds the other languages
# and merges their search entries into one index: one index per language (searchlang.py).
@event_priority(-110)
def on_post_build(config: Any) -> None:
    searchlang.split(config)
