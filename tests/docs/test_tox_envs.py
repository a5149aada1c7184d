"""One list of environments: ``tox.ini``. The run guide's table is generated from it
(``<!-- jaxcb:tox-envs -->``, ``docs/hooks/jaxcb_site/toxenvs.py``) and the README leaves the
list to the run guide; these tests read the built page against the file tox runs."""

from __future__ import annotations

import configparser
import html
import re
from pathlib import Path

import pytest

from jaxcb_site import toxenvs

ROOT = Path(__file__).resolve().parents[2]


def _tox_ini() -> tuple[dict[str, str], list[str]]:
    """``{env: description}`` of every ``[testenv:NAME]``, and ``env_list``."""
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(ROOT / "tox.ini")
    envs = {
        s.removeprefix("testenv:"): " ".join(ini[s]["description"].split())
        for s in ini.sections()
        if s.startswith("testenv:")
    }
    return envs, ini["tox"]["env_list"].replace(",", " ").split()


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def test_run_page_shows_every_environment_as_tox_ini_describes_it(site: Path) -> None:
    page = (site / "run" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(
        r"<tr>\s*<td><code>([\w.-]+)</code></td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*</tr>",
        page,
        re.S,
    )
    shown = {name: (_text(mark), _text(what)) for name, mark, what in rows}
    envs, default = _tox_ini()
    assert set(shown) == set(envs)
    assert [name for name, _, _ in rows][: len(default)] == default  # the default run first
    assert {name for name, (mark, _) in shown.items() if mark == "✓"} == set(default)
    for name, description in envs.items():
        assert shown[name][1] == description.replace("`", ""), name


def test_an_environment_without_a_description_fails_the_build(tmp_path: Path) -> None:
    ini = tmp_path / "tox.ini"
    ini.write_text("[tox]\nenv_list = a\n[testenv:a]\ndescription = runs a\n[testenv:b]\n")
    with pytest.raises(toxenvs.ToxIniError, match=r"\[testenv:b\] has no description"):
        toxenvs.environments(ini)
    ini.write_text("[tox]\nenv_list = a, c\n[testenv:a]\ndescription = runs a\n")
    with pytest.raises(toxenvs.ToxIniError, match=r"env_list names \['c'\]"):
        toxenvs.environments(ini)


def test_a_description_is_one_table_cell() -> None:
    """``<jax>`` is text, not a tag; a code span is kept as written; ``|`` ends no cell."""
    cell = toxenvs._cell("writes docs/<jax>.json & `x<y>` | z")
    assert cell == "writes docs/&lt;jax&gt;.json &amp; `x<y>` \\| z"


def test_readme_leaves_the_list_to_the_run_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/run.md" in readme
    envs, _ = _tox_ini()
    rows = [
        line
        for line in readme.splitlines()
        if line.lstrip().startswith("|") and any(f"`{name}`" in line for name in envs)
    ]
    assert rows == [], "README.md lists environments itself: link docs/run.md instead"


# a measured duration: "11 min 36 s", "532 s", "0.8 min" (the configuration says why, not how
# long a run once took: that history is docs/contributing/test-timings.md's)
TIMING = re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|µs|min|minutes?|seconds?)\b")


def test_configuration_files_carry_no_timing_runs() -> None:
    files = [ROOT / "tox.ini", ROOT / "pyproject.toml", ROOT / "mkdocs.yml"]
    files += sorted(ROOT.glob("packages/*/pyproject.toml"))
    files += sorted(ROOT.glob("packages/*/CMakeLists.txt"))
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in files
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TIMING.search(line)
    ]
    assert found == []
