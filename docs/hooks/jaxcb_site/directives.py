"""The ``<!-- jaxcb:NAME args -->`` directives: the one table of them and their expansion.

A directive stands alone on a line of a page; ``DIRECTIVES`` maps its name to the function
that expands it, called with the page's path and the directive's arguments. The functions
live by family: the matrix and the catalog (``matrixtables.py``), verdicts and claims
(``verdicts.py``), the packages' source (``sourcedocs.py``), the performance page
(``perf.py``) and the modules named in the table below. The table of all of them, with their
arguments and what they expand to, is generated from ``DIRECTIVES`` and the functions'
docstrings by ``<!-- jaxcb:directives -->`` on the contributors' page
(``docs/contributing/site.md``): a directive without a docstring fails the build there.
"""

from __future__ import annotations

import inspect
import re
import shlex
from collections.abc import Callable

from . import (
    behaviour,
    claims,
    distributed,
    examples,
    lessons,
    matrixtables,
    perf,
    sourcedocs,
    timeline,
    toxenvs,
    verdicts,
)
from .dirbase import DirectiveError
from .verdicts import claims_table

# alone on a line; indented (inside a list item) the expansion keeps the indentation
DIRECTIVE = re.compile(r"^([ \t]*)<!-- jaxcb:([a-z-]+)((?:[ \t]+[^\s]+)*)[ \t]*-->[ \t]*$", re.M)


DIRECTIVES: dict[str, Callable[..., str]] = {
    "api": sourcedocs.d_api,
    "calls": matrixtables.d_calls,
    "check-rules": sourcedocs.d_check_rules,  # docs/check.md (jaxcb_check)
    "computation": matrixtables.d_computation,
    "contracts": matrixtables.d_contracts,
    "computations": matrixtables.d_computations,
    "environments": matrixtables.d_environments,
    "legend": matrixtables.d_legend,
    "matrix": matrixtables.d_matrix,
    "quick": matrixtables.d_quick,
    "summary": matrixtables.d_summary,
    "variants": matrixtables.d_variants,
    "verdict": verdicts.d_verdict,
    **perf.DIRECTIVES,  # bench-NAME: the performance page
    **behaviour.DIRECTIVES,  # exceptions, dispatch, gotchas (docs/data/behaviour)
    **claims.DIRECTIVES,  # expect: a statement about behaviour, checked against its cells
    "example": examples.directive,  # a runnable example and its recorded output
    **distributed.DIRECTIVES,  # dist-NAME: the multi-process page (docs/distributed.md)
    **lessons.DIRECTIVES,  # lesson-head, cell, shows, lesson-file: the learning path
    **toxenvs.DIRECTIVES,  # tox-envs: tox.ini's environments (docs/run.md)
    **timeline.DIRECTIVES,  # timeline: what changed between measured releases (docs/timeline.md)
}


def _arguments(fn: Callable[..., str]) -> str:
    """The directive's arguments as its signature names them: ``NAME``, ``[NAME]`` when it
    has a default, ``[NAME ...]`` for any number."""
    out = []
    for p in list(inspect.signature(fn).parameters.values())[1:]:  # after the page's path
        name = p.name.upper()
        if p.kind is p.VAR_POSITIONAL:
            out.append(f"[{name} ...]")
        elif p.default is not p.empty:
            out.append(f"[{name}]")
        else:
            out.append(name)
    return " ".join(out)


def d_directives(src: str) -> str:
    """Every directive the site engine knows, from its own table: name, arguments, what it
    expands to (the first paragraph of its function's docstring) and the module defining it."""
    rows = ["| directive | arguments | expands to | module |", "|---|---|---|---|"]
    for name, fn in sorted(DIRECTIVES.items()):
        doc = inspect.getdoc(fn)
        if not doc:
            raise DirectiveError(f"jaxcb:{name}: its function has no docstring to list")
        what = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        module = fn.__module__.rsplit(".", 1)[-1]
        args = _arguments(fn)
        rows.append(f"| `jaxcb:{name}` | {f'`{args}`' if args else '–'} | {what} | `{module}.py` |")
    rows.append(
        "| `jaxcb:claims-table` | – | "
        + " ".join((inspect.getdoc(claims_table) or "").split("\n\n")[0].split())
        + f" | `{claims_table.__module__.rsplit('.', 1)[-1]}.py` |"
    )
    return "\n".join(rows)


DIRECTIVES["directives"] = d_directives  # this table itself (docs/contributing/site.md)


def expand(markdown: str, src_uri: str) -> str:
    if "<!-- jaxcb:claims-table -->" in markdown:
        markdown = markdown.replace("<!-- jaxcb:claims-table -->", claims_table(markdown), 1)

    def sub(m: re.Match[str]) -> str:
        indent, name, args = m.group(1), m.group(2), shlex.split(m.group(3))
        if name not in DIRECTIVES:
            raise DirectiveError(f"{src_uri}: unknown directive jaxcb:{name}")
        try:
            out = DIRECTIVES[name](src_uri, *args)
        except TypeError as e:
            raise DirectiveError(f"{src_uri}: jaxcb:{name} {args}: {e}") from e
        if name == "shows":  # a check that shows nothing: its line goes, the paragraph stays
            return DROP
        return "\n".join(indent + line if line else line for line in out.split("\n"))

    return re.sub(rf"^{DROP}\n?", "", DIRECTIVE.sub(sub, markdown), flags=re.M)


DROP = "\x00jaxcb-drop\x00"
