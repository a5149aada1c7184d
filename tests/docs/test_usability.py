"""What a reader who copies, searches and links gets from the built site.

Runnable examples next to every pattern and on every mechanism page, each pattern's whole
file and its link, API names linked to the JAX documentation from one data file, version
facts that cite the changelog, no internal words, a matrix page small enough for a phone.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from jaxcb_core import schema
from jaxcb_site import apilinks, code, examples
from jaxcb_site import data as site_data

ROOT = Path(__file__).resolve().parents[2]
NAMES = [c["name"] for c in site_data.computations()]
MECHANISM_PAGES = sorted(
    p.stem for p in (ROOT / "docs" / "mechanisms").glob("*.md") if p.stem != "index"
)
INTERNAL = re.compile(r"seed[\s_]*0\d\d|seed texts?\b|issue\s+2\b", re.I)

pytestmark = pytest.mark.slow


def _config() -> dict[str, Any]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def _text(page: Path) -> str:
    raw = page.read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
    tips = " ".join(re.findall(r'title="([^"]*)"', raw))  # what hover and tap show
    return html.unescape(re.sub(r"<[^>]+>", " ", raw) + " " + tips)


def test_repository_and_search_settings() -> None:
    cfg = _config()
    assert cfg["repo_url"].startswith("https://github.com/")
    assert cfg["edit_uri"]
    search = next(p["search"] for p in cfg["plugins"] if isinstance(p, dict) and "search" in p)
    sep = re.compile(search["separator"])
    # identifiers stay whole; dotted names split at their dots
    assert sep.split("vmap_method") == ["vmap_method"]
    assert [t for t in sep.split("jax.effects_barrier()") if t] == ["jax", "effects_barrier"]
    assert [t for t in sep.split("jax.debug.print") if t] == ["jax", "debug", "print"]
    assert sep.split("0.4.35") == ["0.4.35"]


def test_pre_commit_snippet_names_this_repository() -> None:
    """The check page's hook configuration points at the repository the site names."""
    text = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    repos = re.findall(r"^\s*- repo: (\S+)", text, flags=re.M)
    assert _config()["repo_url"] in repos, repos
    assert "<" not in "".join(re.findall(r"^\s*(?:- repo|rev): .*$", text, flags=re.M))


def test_matrix_page_is_under_1_mb(site: Path, matrix_files: list[Any]) -> None:
    size = (site / "matrix" / "index.html").stat().st_size
    print(f"matrix page: {size / 1e6:.2f} MB")
    assert size < 1_000_000


def test_matrix_environment_files_hold_every_cell(
    site: Path, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    for path, data in matrix_files:
        doc = json.loads((site / "matrix" / "envs" / f"{path.stem}.json").read_text("utf-8"))
        assert len(doc["cells"]) == len(data["cells"])
        assert doc["transforms"] == [t["id"] for t in data["transforms"]]
        assert doc["html"].count('class="jx-link"') == len(data["cells"])
        first = data["cells"][0]
        key = "|".join((first["variant"], first["computation"], first["transform"]))
        assert doc["cells"][key][1] == first["test"]


def _whole_file(page: Path, raw: str, rel: str) -> str:
    """The text of the folded whole file ``rel`` on a built page: the block's body is the
    file the page script loads when the block is opened (deferred.py)."""
    summary = f"The whole file, <code>{Path(rel).name}</code>"
    found = []
    for at in [m.start() for m in re.finditer(re.escape(summary), raw)]:
        after = raw[at:]
        match = re.search(r'<div class="jx-whole-body" data-src="([^"]+)"></div>', after)
        assert match, f"{rel}: not folded"
        assert after.index(match.group()) < after.index("</details>"), f"{rel}: not in its block"
        body = json.loads((page / match.group(1)).read_text(encoding="utf-8"))["html"]
        if f'<span class="filename">{rel}</span>' in body:
            found.append(re.search(r"<code>(.*?)</code></pre>", body, re.S))
    assert len(found) == 1, f"{rel}: {len(found)} folded blocks of it"
    assert found[0], f"{rel}: no code block"
    return html.unescape(re.sub(r"<[^>]+>", "", found[0].group(1)))


@pytest.mark.parametrize("name", NAMES)
def test_every_pattern_tab_links_its_file_shows_it_whole_and_runs_an_example(
    site: Path, name: str
) -> None:
    raw = (site / "computations" / name / "index.html").read_text(encoding="utf-8")
    for pkg in code.packages():
        path = pkg.module(name)
        if path is None:
            continue
        rel = path.relative_to(ROOT).as_posix()
        assert f"/blob/main/{rel}" in raw, f"{rel}: no link to the whole file"
        if code.sections(path):
            source = path.read_text(encoding="utf-8").splitlines(keepends=True)
            unmarked = "".join(ln for ln in source if not code.SECTION.match(ln))
            shown = _whole_file(site / "computations" / name, raw, rel)
            assert shown.rstrip() == unmarked.rstrip(), f"{rel} is not shown whole"
        example = f"docs/examples/{pkg.name}/{name}.py"
        assert f">{example}</span>" in raw, f"no example {example} on the {name} page"
    assert raw.count("Output · JAX") >= sum(bool(p.module(name)) for p in code.packages())


@pytest.mark.parametrize("page", MECHANISM_PAGES)
def test_every_mechanism_page_has_a_complete_example_with_its_output(site: Path, page: str) -> None:
    raw = (site / "mechanisms" / page / "index.html").read_text(encoding="utf-8")
    assert 'id="example"' in raw
    assert ">docs/examples/" in raw
    assert "Output · JAX" in raw


def test_every_example_output_comes_from_the_file_shown() -> None:
    """Each recorded example exists, and each example has an output of its current source."""
    ids = set()
    for f in examples.files():
        for e in f.examples:
            assert (examples.EXAMPLES_DIR / f"{e.id}.py").is_file(), f"{e.id}: no such example"
            ids.add(e.id)
    for p in sorted(examples.EXAMPLES_DIR.glob("*/*.py")):
        example = p.relative_to(examples.EXAMPLES_DIR).with_suffix("").as_posix()
        assert examples.outputs(example), example  # raises on a stale or missing output


def test_api_file_is_valid_and_complete() -> None:
    doc = schema.load_api(apilinks.API_FILE)
    assert all(a.url.startswith("https://") for a in doc.apis)
    for c in doc.changelog:
        assert c.url.startswith("https://docs.jax.dev/en/latest/changelog.html#jax-")
        assert f"jax-{c.version.replace('.', '-')}-" in c.url
    for name in (
        "jax.pure_callback",
        "jax.experimental.io_callback",
        "jax.debug.callback",
        "jax.debug.print",
        "jax.ffi.ffi_call",
        "jax.experimental.buffer_callback",
        "jax.effects_barrier",
        "jax.experimental.host_callback",
    ):
        assert apilinks.url(name), name


def test_api_names_link_to_the_jax_documentation(site: Path) -> None:
    raw = (site / "index.html").read_text(encoding="utf-8")
    url = apilinks.url("jax.pure_callback")
    assert f'<a href="{url}"><code>jax.pure_callback</code></a>' in raw
    raw = (site / "mechanisms" / "pure_callback" / "index.html").read_text(encoding="utf-8")
    assert f'<a href="{apilinks.url("jax.custom_jvp")}"><code>jax.custom_jvp</code></a>' in raw
    # nowhere in the prose is a documented name left unlinked
    names, _ = apilinks.tables()
    unlinked = []
    for page in sorted(site.rglob("*.html")):
        if "api/" in page.relative_to(site).as_posix():
            continue
        text = page.read_text(encoding="utf-8")
        for para in re.findall(r"<p>(.*?)</p>", text, flags=re.S):
            para = re.sub(r"<a\b.*?</a>", "", para, flags=re.S)  # linked already
            for m in re.finditer(r"<code>([A-Za-z_][\w.]*)(?:\(\))?</code>", para):
                if m.group(1) in names:
                    unlinked.append(f"{page.relative_to(site)}: {m.group(1)}")
    assert unlinked == []


def test_version_facts_cite_the_changelog(site: Path) -> None:
    raw = (site / "mechanisms" / "host_callback" / "index.html").read_text(encoding="utf-8")
    for version in ("0.4.26", "0.4.35", "0.7.1", "0.8.0"):
        assert f'href="{apilinks.changelog(version)}"' in raw, version
    for md in sorted((ROOT / "docs").rglob("*.md")):
        text = md.read_text(encoding="utf-8")
        for m in re.finditer(r"\]\(jax-changelog:([0-9.]+)\)", text):
            apilinks.changelog(m.group(1))  # raises for a release the data file lacks
        assert "jax-changelog:" not in (site / "index.html").read_text(encoding="utf-8")


def _internal_words_in_data() -> list[str]:
    found = []
    for p in sorted(site_data.matrix_dir().glob("*.json")):
        for m in INTERNAL.finditer(p.read_text(encoding="utf-8")):
            found.append(f"{p.name}: {m.group(0)!r}")
    return found


@pytest.mark.xfail(
    bool(_internal_words_in_data()),
    reason="the committed matrix files still carry internal words (the catalog's and "
    "registries' old source strings): re-measure them",
    strict=True,
)
def test_no_internal_words_on_any_page(site: Path) -> None:
    """The source texts are named by their titles; no "seed 000", "seed texts", "issue 2"."""
    offenders = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        for m in INTERNAL.finditer(_text(page)):
            offenders.append(f"{rel}: {m.group(0)!r}")
    assert offenders == []


def test_no_internal_words_in_the_page_sources() -> None:
    """What the pages and the engine say themselves (the data is checked above)."""
    offenders = []
    for md in sorted((ROOT / "docs").rglob("*.md")):
        text = re.sub(r"<!-- jaxcb:[^>]*-->", "", md.read_text(encoding="utf-8"))
        offenders += [f"{md.relative_to(ROOT)}: {m.group(0)!r}" for m in INTERNAL.finditer(text)]
    assert offenders == []
