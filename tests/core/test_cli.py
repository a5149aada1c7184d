"""The ``jaxcb`` command line: help with examples, and ``jaxcb matrix``'s progress bar."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from jaxcb_core import cli
from jaxcb_core.schema import Cell

COMMANDS = ["catalog", "smoke", "matrix", "check"]


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        cli.main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_top_level_help_shows_examples(capsys: pytest.CaptureFixture[str]) -> None:
    out = _help(capsys)
    assert "examples:" in out
    assert "jaxcb matrix -m pure_callback -t vmap" in out
    for command in COMMANDS:
        assert command in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_help_shows_an_example(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    out = _help(capsys, command)
    assert "example" in out
    assert f"jaxcb {command} " in out.split("example", 1)[1]


def _cell(i: int) -> Cell:
    return Cell(variant="native/jax", computation="sin_scale", transform=f"t{i}", status="ok")


def test_progress_bar_counts_rate_and_eta_on_a_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120, color_system=None)
    with cli.progress_bar(3, console=console) as tick:
        for i in range(3):
            tick(_cell(i))
    out = buf.getvalue()
    assert "3/3" in out
    assert "cells/s" in out
    assert "ETA" in out
    assert "100%" in out


def test_progress_bar_is_quiet_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False)
    with cli.progress_bar(2, console=console) as tick:
        tick(_cell(0))
        tick(_cell(1))
    assert buf.getvalue() == ""
    assert capsys.readouterr().err == ""


def test_progress_bar_verbose_without_a_terminal_prints_one_line_per_cell(
    capsys: pytest.CaptureFixture[str],
) -> None:
    console = Console(file=io.StringIO(), force_terminal=False)
    with cli.progress_bar(2, verbose=True, console=console) as tick:
        tick(_cell(0))
        tick(_cell(1))
    assert capsys.readouterr().err.splitlines() == [
        "✓ native/jax | sin_scale | t0",
        "✓ native/jax | sin_scale | t1",
    ]


def test_matrix_draws_the_bar_on_a_terminal_and_nothing_in_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["matrix", "-m", "native", "-c", "sin_scale", "-t", "jit", "-t", "grad", "-j", "0"]
    assert cli.main(argv) == 0  # capsys: stderr is not a terminal
    captured = capsys.readouterr()
    assert "2 cells in" in captured.out
    assert captured.err == ""

    buf = io.StringIO()
    monkeypatch.setattr(
        cli, "_stderr_console", lambda: Console(file=buf, force_terminal=True, width=120)
    )
    assert cli.main(argv) == 0
    assert "2/2" in buf.getvalue()
    assert "cells/s" in buf.getvalue()
