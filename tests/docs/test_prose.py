"""The prose check (``jaxcb_site.prose``): absolute sentences need a datum, a source or a
reason."""

from __future__ import annotations

from pathlib import Path

from jaxcb_site import prose, prose_reviewed

# PENDING only shrinks: lower this when entries leave it, never raise it.
PENDING_AT_MOST = 7


def _page(root: Path, text: str, name: str = "page.md") -> None:
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / name).write_text(text, encoding="utf-8")


def test_the_published_prose_passes() -> None:
    assert prose.check() == []


def test_pending_does_not_grow() -> None:
    assert len(prose_reviewed.PENDING) <= PENDING_AT_MOST


def test_an_absolute_sentence_alone_is_flagged(tmp_path: Path) -> None:
    _page(tmp_path, "# Title\n\nThe host always runs once. It works.\n")
    problems = prose.check(tmp_path, (), ())
    assert len(problems) == 1
    assert problems[0].startswith("docs/page.md:3: 'The host always runs once.' is absolute")


def test_a_data_directive_beside_it_holds_it(tmp_path: Path) -> None:
    _page(
        tmp_path,
        "The host always runs once.\n<!-- jaxcb:expect io_callback sin_scale jit host_calls=1 -->\n"
        "\n- Every step arrives.\n  <!-- jaxcb:expect-observation gotcha merged host_calls=2 -->\n",
    )
    assert prose.check(tmp_path, (), ()) == []
    assert prose.counts(tmp_path, (), ())["en"]["data"] == 2


def test_a_directive_that_checks_nothing_does_not(tmp_path: Path) -> None:
    _page(tmp_path, "The host always runs once.\n<!-- jaxcb:legend -->\n")
    assert len(prose.check(tmp_path, (), ())) == 1


def test_code_and_comments_are_not_prose(tmp_path: Path) -> None:
    _page(tmp_path, "```python\n# always\n```\n\n<!-- never -->\n\nUses `every` here.\n")
    assert prose.check(tmp_path, (), ()) == []


def test_front_matter_is_not_prose(tmp_path: Path) -> None:
    _page(
        tmp_path, "---\nsearch:\n  boost: 0.3  # below every reader page\n---\n\nIt never runs.\n"
    )
    problems = prose.check(tmp_path, (), ())
    assert len(problems) == 1
    assert problems[0].startswith("docs/page.md:6: 'It never runs.' is absolute")


def test_a_cited_source_needs_a_version(tmp_path: Path) -> None:
    link = "[its docstring](https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html)"
    _page(
        tmp_path, f"JAX may never run it ({link}).\n\nJAX may never run it ({link}, JAX 0.4.30).\n"
    )
    problems = prose.check(tmp_path, (), ())
    assert len(problems) == 1
    assert "docs/page.md:1:" in problems[0]


def test_a_reviewed_entry_holds_it_and_a_stale_one_fails(tmp_path: Path) -> None:
    _page(tmp_path, "Never edit this file by hand.\n")
    ok = [("docs/page.md", "Never edit", "advice")]
    assert prose.check(tmp_path, ok, ()) == []
    stale = [*ok, ("docs/page.md", "Always gone", "a sentence that was rewritten")]
    assert prose.check(tmp_path, stale, ()) == [
        "prose_reviewed.py: docs/page.md: 'Always gone' matches no sentence"
    ]
    assert prose.check(tmp_path, [("docs/page.md", "Never edit", " ")], ()) == [
        "prose_reviewed.py: docs/page.md: 'Never edit' gives no reason"
    ]


def test_an_entry_for_a_sentence_data_now_checks_fails(tmp_path: Path) -> None:
    _page(
        tmp_path, "It never runs.\n<!-- jaxcb:expect io_callback sin_scale jit host_calls=1 -->\n"
    )
    problems = prose.check(tmp_path, (), [("docs/page.md", "It never runs.")])
    assert problems == ["docs/page.md:1: 'It never runs.' is data: drop its entry"]


def test_chinese_terms_are_found(tmp_path: Path) -> None:
    _page(tmp_path, "主机总是运行。它调用三次。这是一句话。\n", "page.zh.md")
    problems = prose.check(tmp_path, (), ())
    assert [p.split("'")[1] for p in problems] == ["主机总是运行。", "它调用三次。"]


def test_an_admonition_body_and_a_docstring_are_prose(tmp_path: Path) -> None:
    _page(tmp_path, '!!! note "Note"\n\n    It cannot fail.\n')
    module = tmp_path / "packages" / "jaxcb-x" / "src" / "jaxcb_x" / "mod.py"
    module.parent.mkdir(parents=True)
    module.write_text('"""A pattern.\n\n- **Pure.** It only reads.\n"""\n', encoding="utf-8")
    problems = prose.check(tmp_path, (), ())
    assert [p.split(":")[0] for p in problems] == [
        "docs/page.md",
        "packages/jaxcb-x/src/jaxcb_x/mod.py",
    ]
