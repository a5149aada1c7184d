"""The test environments as ``tox.ini`` defines them: one table, generated.

``tox.ini`` is the one list: ``docs/run.md`` shows it through ``<!-- jaxcb:tox-envs -->``,
each environment's ``description`` as the sentence beside it, so the page cannot say
something else than the file tox runs. Read with :mod:`configparser` (no tox, no JAX).
"""

from __future__ import annotations

import configparser
import dataclasses
import html
import re
from pathlib import Path

from .data import ROOT

TOX_INI = ROOT / "tox.ini"


class ToxIniError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Env:
    name: str
    description: str
    default: bool  # in [tox] env_list: what `tox` (and `scripts/dev test`) runs


def environments(path: Path = TOX_INI) -> list[Env]:
    """Every ``[testenv:NAME]`` of ``path``, those of ``env_list`` first in its order, then
    the others in the file's order. An environment without a description, or an
    ``env_list`` entry without a section, is an error."""
    ini = configparser.ConfigParser(interpolation=None)
    ini.read_string(path.read_text(), source=str(path))
    default = re.split(r"[\s,]+", ini.get("tox", "env_list", fallback="").strip())
    default = [name for name in default if name]
    sections = [s.removeprefix("testenv:") for s in ini.sections() if s.startswith("testenv:")]
    if missing := [name for name in default if name not in sections]:
        raise ToxIniError(f"{path}: env_list names {missing}, which have no [testenv:NAME]")
    envs = []
    for name in default + [s for s in sections if s not in default]:
        description = " ".join(ini.get(f"testenv:{name}", "description", fallback="").split())
        if not description:
            raise ToxIniError(f"{path}: [testenv:{name}] has no description to show")
        envs.append(Env(name, description, name in default))
    return envs


def _cell(text: str) -> str:
    """``text`` for a Markdown table cell: code spans kept, ``<``/``>``/``&`` outside them
    escaped (``<jax>`` is not a tag), ``|`` escaped everywhere."""
    parts = re.split(r"(`[^`]*`)", text)
    out = "".join(p if p.startswith("`") else html.escape(p, quote=False) for p in parts)
    return out.replace("|", "\\|")


def d_tox_envs(src: str) -> str:
    """Every environment of ``tox.ini`` with its ``description``, the default run's
    (``env_list``) first and marked."""
    rows = ["| tox env | in the default run | what it runs |", "|---|---|---|"]
    for env in environments():
        rows.append(f"| `{env.name}` | {'✓' if env.default else ''} | {_cell(env.description)} |")
    return "\n".join(rows)


DIRECTIVES = {"tox-envs": d_tox_envs}
