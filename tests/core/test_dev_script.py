"""scripts/dev's command line: usage errors exit 2 with the usage, a port in use is one line.

Only the argument handling is run here (it comes before anything is installed); the two
commands themselves are what the README times.
"""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

DEV = Path(__file__).resolve().parents[2] / "scripts" / "dev"


def _dev(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEV), *args], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("args", "first"),
    [
        ((), None),
        (("bogus",), "scripts/dev: unknown command: bogus"),
        (("site", "--measur"), "scripts/dev: unknown option for site: --measur"),
        (("site", "--port"), "scripts/dev: --port needs a number from 1 to 65535"),
        (("site", "--port", "80000"), "scripts/dev: --port needs a number from 1 to 65535"),
        (("test", "--fast"), "scripts/dev: unknown option for test: --fast"),
        (("test", "-e"), "scripts/dev: -e needs environment names"),
        (
            ("test", "--quick", "-e", "py313"),
            "scripts/dev: --quick picks its own environments: drop -e",
        ),
        (
            ("test", "-e", "docs", "--quick"),
            "scripts/dev: --quick picks its own environments: drop -e",
        ),
    ],
)
def test_bad_command_lines_print_the_usage_and_exit_2(
    args: tuple[str, ...], first: str | None
) -> None:
    proc = _dev(*args)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    if first is not None:
        assert lines[0] == first
    assert "  scripts/dev site [--port N] [--measure]" in lines
    assert "  scripts/dev test [--quick | -e ENV[,ENV...]] [-- ARGS]" in lines
    assert "  scripts/dev profile [-e ENV[,ENV...]] [--out DIR]" in lines
    assert proc.stdout == ""


def test_help_prints_the_usage() -> None:
    proc = _dev("--help")
    assert proc.returncode == 2
    assert "  scripts/dev site [--port N] [--measure]" in proc.stderr.splitlines()


def test_a_port_in_use_is_one_line_naming_it_and_how_to_choose_another() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        proc = _dev("site", "--port", str(port))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"scripts/dev: port {port} on 127.0.0.1 is in use; "
        f"choose another with `scripts/dev site --port {port + 1}`"
    ]
