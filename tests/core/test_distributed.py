"""The multi-process harness without starting a process: layouts and ports rejected before
anything starts, how a cell is decided from every process's view, and the schema's
additions (absent from the one-process files, which stay byte for byte the same).

The tests that start JAX jobs are in tests/distributed (``tox -e multiprocess``).
"""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jaxcb_core import cli, matrix
from jaxcb_core.distributed import launcher
from jaxcb_core.distributed import matrix as distmatrix
from jaxcb_core.distributed.layout import Layout, LayoutError, check_port, free_port, port_free
from jaxcb_core.schema import Cell, ProcessCell, dump, load_matrix

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting any process fails the test: the checks must come first."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"a process was started: {args}")

    monkeypatch.setattr(launcher.subprocess, "Popen", refuse)


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


@pytest.mark.parametrize(
    ("processes", "local", "message"),
    [
        (1, 2, "at least 2 processes, got 1"),
        (0, 2, "at least 2 processes, got 0"),
        (-3, 2, "at least 2 processes, got -3"),
        (2, 0, "at least 1 device, got 0"),
        (2, -1, "at least 1 device, got -1"),
        (17, 1, "at most 16 processes"),
        (True, 2, "at least 2 processes, got True"),
    ],
)
def test_impossible_layouts_are_rejected(processes: int, local: int, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        Layout(processes, local)


@pytest.mark.parametrize(
    ("processes", "local", "devices", "message"),
    [
        (2, 2, 8, r"8 devices is more than 2 processes × 2 devices each = 4"),
        (2, 2, 3, r"3 devices is fewer than 2 processes × 2 devices each = 4"),
        (3, None, 4, "4 devices do not split evenly over 3 processes"),
        (4, None, 2, "2 devices for 4 processes: a process would have none"),
        (2, None, 0, "at least 1 device, got 0"),
        (2, None, -4, "at least 1 device, got -4"),
    ],
)
def test_impossible_device_counts_are_rejected(
    processes: int, local: int | None, devices: int, message: str
) -> None:
    with pytest.raises(LayoutError, match=message):
        Layout.of(processes, local, devices)


def test_layouts_from_the_command_line() -> None:
    assert Layout.of(2) == Layout(2, 2)
    assert Layout.of(2, devices=6) == Layout(2, 3)
    assert Layout.of(4, 1) == Layout(4, 1)
    assert Layout.of(2, 2, 4).devices == 4


def test_a_port_in_use_is_rejected(busy_port: int) -> None:
    assert not port_free(busy_port)
    with pytest.raises(LayoutError, match=f"port {busy_port} on 127.0.0.1 is in use"):
        check_port(busy_port)
    for bad in (0, 70000, -1):
        with pytest.raises(LayoutError, match="from 1 to 65535"):
            check_port(bad)
    assert port_free(free_port())


def test_launch_checks_the_port_before_starting_anything(busy_port: int, no_process: None) -> None:
    with pytest.raises(LayoutError, match="is in use"):
        launcher.launch(Layout(2, 2), [("native/jax", "sin_scale", "jit")], port=busy_port)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--processes", "1"], "at least 2 processes"),
        (["--processes", "0"], "at least 2 processes"),
        (["--processes", "2", "--local-devices", "0"], "at least 1 device"),
        (["--processes", "2", "--local-devices", "2", "--devices", "8"], "more than"),
        (["--processes", "2", "--port", "0"], "from 1 to 65535"),
    ],
)
def test_the_command_rejects_bad_input_before_starting(
    argv: list[str], message: str, no_process: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["matrix", *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_command_rejects_a_port_in_use(
    busy_port: int, no_process: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["matrix", "--processes", "2", "--port", str(busy_port)]) == 2
    assert f"port {busy_port} on 127.0.0.1 is in use" in capsys.readouterr().err


def _line(process: int, **kw: Any) -> dict[str, Any]:
    return {"process": process, "status": "ok", "rtol": 1e-6, "atol": 0.0, **kw}


def _records(n: int, state: list[float] | None = None) -> list[list[Any]]:
    return [[k, state] for k in range(1, n + 1)]


KEY = ("v/x", "log_steps", "shard_map")


def test_a_cell_merges_every_process() -> None:
    """Four calls (one per device), two per process: each process's records match its own."""
    expected = [_records(2, [float(c)]) for c in range(4)]
    lines = [
        _line(
            0, host_calls=4, shapes=["f[1]"], expected=expected, records=expected[0] + expected[1]
        ),
        _line(
            1, host_calls=4, shapes=["f[1]"], expected=expected, records=expected[3] + expected[2]
        ),
    ]
    cell = distmatrix.merge(KEY, lines, {})
    assert (cell.status, cell.host_calls, cell.shapes) == ("ok", 8, ["f[1]"])
    assert cell.effects is not None
    assert (cell.effects.verdict, cell.effects.arrived) == ("exact", 8)
    assert cell.processes is not None
    assert [[(d.call, d.steps) for d in p.delivered or ()] for p in cell.processes] == [
        [(0, [1, 2]), (1, [1, 2])],
        [(2, [1, 2]), (3, [1, 2])],
    ]
    assert (
        cell.test
        == "tests/distributed/test_distributed_matrix.py::test_cell[v/x|log_steps|shard_map]"
    )


def test_records_nobody_owed_and_records_missing_make_a_wrong_cell() -> None:
    expected = [_records(2, [1.0])]
    lines = [
        _line(0, host_calls=2, expected=expected, records=_records(2, [9.0])),  # wrong states
        _line(1, host_calls=0, expected=expected, records=[]),
    ]
    cell = distmatrix.merge(KEY, lines, {})
    assert cell.status == "wrong"
    assert cell.effects is not None
    assert cell.effects.verdict == "missing"
    assert cell.processes is not None
    assert cell.processes[0].unmatched == [1, 2]


def test_a_wrong_result_on_one_process_is_a_wrong_cell() -> None:
    lines = [_line(0, host_calls=1), _line(1, host_calls=0, mismatch="output 0: values differ")]
    cell = distmatrix.merge(("v/x", "sin_scale", "sharded_jit"), lines, {})
    assert (cell.status, cell.reason) == ("wrong", "process 1: output 0: values differ")
    assert cell.processes is not None
    assert [p.status for p in cell.processes] == ["ok", "wrong"]


def test_a_process_without_a_result_makes_an_error_cell() -> None:
    lines = [_line(0, host_calls=1), None]
    missing = {1: ("process timeout", "no result in 10 s")}
    cell = distmatrix.merge(("v/x", "sin_scale", "local_jit"), lines, missing)
    assert (cell.status, cell.error_type, cell.error) == (
        "error",
        "process timeout",
        "process 1: no result in 10 s",
    )


def test_each_process_alone_owes_its_own_calls_and_draws() -> None:
    own = [_records(1, [1.0])]
    lines = [_line(p, host_calls=1, expected=own, records=own[0]) for p in range(2)]
    cell = distmatrix.merge(("v/x", "log_steps", "local_jit"), lines, {})
    assert cell.effects is not None
    assert (cell.effects.expected, cell.effects.verdict) == (2, "exact")
    draws = [_line(p, calls=1, draws=1) for p in range(2)]
    cell = distmatrix.merge(("v/x", "host_draw", "local_jit"), draws, {})
    assert cell.effects is not None
    assert (cell.effects.expected, cell.effects.arrived, cell.status) == (2, 2, "ok")


def test_not_applicable_everywhere_is_not_applicable() -> None:
    lines = [{"process": p, "status": "n/a", "reason": "why"} for p in range(2)]
    cell = distmatrix.merge(("v/x", "sin_scale", "partitioned"), lines, {})
    assert (cell.status, cell.reason) == ("n/a", "why")


def test_one_process_files_are_unchanged_by_the_new_fields(tmp_path: Path) -> None:
    """Loading and writing a committed one-process file gives the same bytes."""
    for path in sorted((ROOT / "docs" / "data" / "matrix").glob("*.json")):
        data = load_matrix(path)
        if data.environment.process_count > 1:
            continue
        out = tmp_path / path.name
        dump(data, out)
        assert out.read_bytes() == path.read_bytes(), path.name
    plain = Cell(variant="v", computation="c", transform="t", status="ok")
    assert "processes" not in plain.to_json()
    both = plain.model_copy(update={"processes": [ProcessCell(process=0, status="ok")]})
    assert both.to_json()["processes"][0]["process"] == 0
    assert matrix.compare(plain, both) == [
        "processes: committed None, measured "
        "[{'process': 0, 'status': 'ok', 'reason': None, 'error_type': None, 'error': None, "
        "'host_calls': None, 'shapes': None, 'placement': None, 'delivered': None, "
        "'unmatched': None, 'draws': None}]"
    ]


def test_the_worker_runs_as_a_module() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "jaxcb_core.distributed.worker", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert "--process-id" in proc.stdout
