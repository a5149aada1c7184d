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

from typing import Any

from jaxcb_site import apilinks, code, data, directives, matrixpage, perf
from jaxcb_site.markers import AnnotateExtension


def on_config(config: Any) -> Any:
    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(data.ROOT)]  # absolute: the build works from any directory
    snippets["check_paths"] = True
    code.REPOSITORY["url"] = config.get("repo_url")  # the code tabs link each file on GitHub
    config.markdown_extensions.append(AnnotateExtension())
    return config


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
    matrixpage.add_files(files, config)  # the matrix page's per-environment files
    return perf.add_plots(files, config)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    # API names link to the JAX docs, jax-changelog:VERSION to its release (docs/data/jax-api.json)
    return apilinks.link(directives.expand(markdown, page.file.src_uri))
