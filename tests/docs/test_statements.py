"""Sentences about behaviour outside the pages (docstrings, READMEs, code notes, row
descriptions) against the committed data, as the site build checks them."""

from __future__ import annotations

from pathlib import Path

from jaxcb_site import statements
from jaxcb_site.statements import Statement


def test_every_listed_sentence_is_shown_by_its_cells() -> None:
    assert statements.check() == []


def test_a_sentence_the_cells_contradict_is_reported(tmp_path: Path) -> None:
    (tmp_path / "note.md").write_text("An io_callback is never removed.\n", encoding="utf-8")
    false = Statement(
        "note.md",
        "An io_callback is never removed.",
        ("io_callback log_steps grad_scan_args host_calls=12",),
    )
    problems = statements.check((false,), root=tmp_path)
    assert problems
    assert problems[0].startswith(
        "note.md: 'An io_callback is never removed.'…: the page states what the data does not show:"
    )
    assert "host_calls is '0', the page says ['12']" in problems[0]


def test_a_sentence_gone_from_its_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "note.md").write_text("Something else.\n", encoding="utf-8")
    gone = Statement("note.md", "Guaranteed to run.", ("io_callback sin_scale jit status=ok",))
    assert statements.check((gone,), root=tmp_path) == [
        "note.md no longer says 'Guaranteed to run.'…: update STATEMENTS"
    ]


def test_a_run_bullet_nobody_cites_is_reported(tmp_path: Path) -> None:
    package = tmp_path / statements.IO
    package.mkdir(parents=True)
    (package / "mod.py").write_text(
        '"""A pattern.\n\nContract:\n\n- **Guaranteed to run.** Always, once.\n'
        '- **Types.** Any float.\n"""\n',
        encoding="utf-8",
    )
    assert statements.uncited_bullets((), root=tmp_path) == [
        f"{statements.IO}mod.py: the bullet 'Guaranteed to run.' says how the callback runs "
        "and cites nothing"
    ]
    cited = Statement(f"{statements.IO}mod.py", "Always, once.", ())
    assert statements.uncited_bullets((cited,), root=tmp_path) == []


def test_a_docstring_wrapped_over_lines_still_matches() -> None:
    assert statements._flat('"Not removed when the result "\n        "is unused."') == (
        '"Not removed when the result is unused."'
    )


def test_a_docstring_promising_a_run_count_outright_is_reported(tmp_path: Path) -> None:
    package = tmp_path / statements.IO
    package.mkdir(parents=True)
    (package / "mod.py").write_text(
        'def f(x):\n    """Return `x` from the host, every time it runs.\n\n    More."""\n',
        encoding="utf-8",
    )
    assert statements.uncited_absolutes((), root=tmp_path) == [
        f"{statements.IO}mod.py: 'Return `x` from the host, every time it runs.' promises a run "
        "count and cites nothing"
    ]
    cited = Statement(f"{statements.IO}mod.py", "from the host, every time it runs", ())
    assert statements.uncited_absolutes((cited,), root=tmp_path) == []
