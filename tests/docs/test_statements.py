"""Sentences about behaviour outside the pages (docstrings, READMEs, code notes, row
descriptions), each held to the committed data by the check beside it, as the site build
runs them (``jaxcb_site.statements``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jaxcb_site import data, prose, statements

IO_LOG = "packages/jaxcb-io/src/jaxcb_io/log_steps.py"
EMPTY_LOG = "io_callback log_steps grad_scan_args|grad_fori_args effects.verdict=none host_calls=0"


def _write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def test_every_check_beside_a_sentence_holds() -> None:
    found = statements.markers()
    assert statements.check() == []
    # the effect packages, their READMEs, the native and derivative sentences, the code
    # notes and the registries' row descriptions all carry checks
    paths = {m.path for m in found}
    for rel in (
        "packages/jaxcb-io/README.md",
        "packages/jaxcb-debug/README.md",
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "packages/jaxcb-native/src/jaxcb_native/__init__.py",
        "packages/jaxcb-ffi/src/jaxcb_ffi/bessel_jv.py",
        "packages/jaxcb-io/src/jaxcb_io/_registry.py",
        "docs/hooks/jaxcb_site/annotations.py",
        IO_LOG,
    ):
        assert rel in paths, f"{rel} lost its checks"


def test_a_changed_datum_fails_beside_the_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The committed cell behind "the log can stay empty" now delivers two records: the
    build names the docstring's line where the sentence and its check sit."""
    for f in data.MATRIX_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "0.12.0.1-cpu-4.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    cell = next(
        c
        for c in record["cells"]
        if (c["variant"], c["computation"], c["transform"])
        == ("io_callback/unordered", "log_steps", "grad_scan_args")
    )
    cell["host_calls"] = 2
    path.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setenv(data.MATRIX_DIR_ENV, str(tmp_path))

    lines = (data.ROOT / IO_LOG).read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if EMPTY_LOG in t)
    assert "the log can stay empty" in " ".join(lines[line - 4 : line])
    problems = statements.check()
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{IO_LOG}:{line}: the sentence beside jaxcb:expect {EMPTY_LOG}")
    assert "host_calls is '2', the page says ['0']" in problems[0]


def test_a_readme_sentence_the_cells_contradict_is_reported(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "packages/jaxcb-x/README.md",
        "# x\n\nThe log always arrives.\n"
        "<!-- jaxcb:expect io_callback log_steps grad_scan_args host_calls=12 -->\n",
    )
    problems = statements.check(tmp_path)
    assert len(problems) == 1
    assert problems[0].startswith(
        "packages/jaxcb-x/README.md:4: the sentence beside jaxcb:expect io_callback log_steps "
        "grad_scan_args host_calls=12:"
    )
    assert "host_calls is '0', the page says ['12']" in problems[0]


def test_a_check_in_code_needs_a_string_after_it(tmp_path: Path) -> None:
    rel = "docs/hooks/jaxcb_site/notes.py"
    ok = "NOTE = (\n    # jaxcb:expect io_callback sin_scale jit_unused host_calls=1\n    'Kept.'\n)\n"
    _write(tmp_path, rel, ok)
    assert [m.line for m in statements.markers(tmp_path)] == [2]
    assert statements.check(tmp_path) == []
    _write(tmp_path, rel, "# jaxcb:expect io_callback sin_scale jit_unused host_calls=1\nX = 1\n")
    assert statements.check(tmp_path) == [
        f"{rel}:1: jaxcb:expect is followed by no string: it checks nothing"
    ]


def test_only_checks_are_allowed_beside_a_sentence(tmp_path: Path) -> None:
    _write(tmp_path, "packages/jaxcb-x/README.md", "Ok.\n<!-- jaxcb:legend -->\n")
    assert statements.check(tmp_path) == [
        "packages/jaxcb-x/README.md:2: jaxcb:legend is not a check (expect, expect-observation)"
    ]


def test_a_run_bullet_without_a_check_is_reported(tmp_path: Path) -> None:
    rel = f"{statements.IO}mod.py"
    bullet = '"""A pattern.\n\nContract:\n\n- **Guaranteed to run.** Always, once.\n'
    _write(tmp_path, rel, bullet + "- **Types.** Any float.\n\nMore.\n" + '"""\n')
    assert statements.uncited_bullets(tmp_path) == [
        f"{rel}: the bullet 'Guaranteed to run.' says how the callback runs and has no "
        "jaxcb:expect check in it"
    ]
    check = "  <!-- jaxcb:expect io_callback sin_scale jit_unused host_calls=1 -->\n"
    _write(tmp_path, rel, bullet + check + '"""\n')
    assert statements.uncited_bullets(tmp_path) == []
    assert statements.check(tmp_path) == []


def test_a_docstring_promising_a_run_count_outright_is_reported(tmp_path: Path) -> None:
    rel = f"{statements.IO}mod.py"
    _write(
        tmp_path,
        rel,
        'def f(x):\n    """Return `x` from the host, every time it runs.\n\n    More."""\n',
    )
    assert statements.uncited_absolutes(tmp_path) == [
        f"{rel}: 'Return `x` from the host, every time it runs.' promises a run count and "
        "has no check beside it"
    ]
    _write(
        tmp_path,
        rel,
        'def f(x):\n    """Return `x` from the host, every time it runs.\n'
        '    <!-- jaxcb:expect io_callback sin_scale jit_unused host_calls=1 -->\n    """\n',
    )
    assert statements.uncited_absolutes(tmp_path) == []
    assert statements.check(tmp_path) == []


def test_the_prose_check_counts_a_checked_docstring_sentence_as_data(tmp_path: Path) -> None:
    """A module docstring's sentence with a check beside it is checked by data for the prose
    check too; without the check it is an absolute sentence held by nothing."""
    rel = "packages/jaxcb-x/src/jaxcb_x/mod.py"
    sentence = '"""A pattern.\n\n- **Runs.** It always runs once under `jax.jit`.\n'
    _write(tmp_path, rel, sentence + '"""\n')
    assert len(prose.check(tmp_path, (), ())) == 1
    check = "  <!-- jaxcb:expect io_callback sin_scale jit_unused host_calls=1 -->\n"
    _write(tmp_path, rel, sentence + check + '"""\n')
    assert prose.check(tmp_path, (), ()) == []
    assert prose.counts(tmp_path, (), ())["en"]["data"] == 1
