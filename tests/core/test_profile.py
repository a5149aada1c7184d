"""``scripts/dev profile``: the hook's record of a Python's JAX compiles, and the tables.

The hook runs here in a fresh Python, as the ``.pth`` line that ``suite.py`` writes runs it;
the whole command (each env of the suite alone) is what the test-timings page reports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROFILE = Path(__file__).resolve().parents[2] / "scripts" / "profile"
sys.path.insert(0, str(PROFILE))
import suite  # noqa: E402

COMPILE = suite.EVENTS["compile_s"]


def _python(code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh Python that ran the hook first, as the ``.pth`` line does."""
    start = f"exec(compile(open({str(suite.HOOK)!r}).read(), 'hook', 'exec'), {{}})\n"
    env = {**os.environ, "JAXCB_PROFILE_DIR": str(folder), "JAX_PLATFORMS": "cpu"}
    return subprocess.run(
        [sys.executable, "-c", start + code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _records(folder: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def test_a_python_that_compiles_leaves_its_compiles_and_cpu(tmp_path: Path) -> None:
    code = "import jax\nfor k in range(3):\n    jax.jit(lambda x, k=k: x + k)(1.0)\n"
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    (record,) = _records(tmp_path)
    assert record["counts"][COMPILE] == 3
    assert record["events"][COMPILE] > 0
    assert record["cpu_s"] > 0
    assert not list(tmp_path.glob("*.tmp"))


def test_a_forked_child_ending_in_os_exit_leaves_its_own_record(tmp_path: Path) -> None:
    """As the reader's fork server does: JAX imported, no backend yet, then a fork."""
    code = (
        "import os, jax\n"
        "from jax._src import monitoring\n"
        "monitoring.record_event_duration_secs('/before/the/fork', 1.0)\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    jax.jit(lambda x: x * 2)(1.0)\n"
        "    jax.jit(lambda x: x * 3)(1.0)\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "jax.jit(lambda x: x + 1)(1.0)\n"
    )
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    child, parent = sorted(_records(tmp_path), key=lambda r: "/before/the/fork" in r["events"])
    assert child["counts"][COMPILE] == 2
    assert "/before/the/fork" not in child["events"]  # a forked child starts at zero
    assert parent["counts"][COMPILE] == 1


def test_a_python_without_jax_writes_no_events(tmp_path: Path) -> None:
    done = _python("import json", tmp_path)
    assert done.returncode == 0, done.stderr
    (record,) = _records(tmp_path)
    assert record["events"] == {}
    assert record["counts"] == {}


def test_the_sums_and_the_modules(tmp_path: Path) -> None:
    procs = tmp_path / "processes"
    procs.mkdir()
    for pid, (cpu, compiles, seconds) in enumerate([(2.0, 3, 0.5), (1.0, 0, 0.0)]):
        record = {"pid": pid, "argv": [], "cpu_s": cpu, "wall_s": 1.0}
        record["events"] = {COMPILE: seconds} if compiles else {}
        record["counts"] = {COMPILE: compiles} if compiles else {}
        (procs / f"{pid}.json").write_text(json.dumps(record), encoding="utf-8")
    sums = suite._jax(procs)
    assert (sums["processes"], sums["python_cpu_s"], sums["compiles"]) == (2, 3.0, 3)
    assert sums["compile_s"] == pytest.approx(0.5)
    junit = tmp_path / "junit.xml"
    junit.write_text(
        '<testsuites><testsuite><testcase classname="tests.matrix.test_matrix" name="a" '
        'time="2.5"/><testcase classname="tests.matrix.test_matrix" name="b" time="0.5"/>'
        '<testcase classname="tests.docs.test_build" name="c" time="1"/></testsuite>'
        "</testsuites>",
        encoding="utf-8",
    )
    modules = suite._modules(junit)
    assert modules == {
        "tests/matrix/test_matrix.py": {"seconds": 3.0, "tests": 2},
        "tests/docs/test_build.py": {"seconds": 1.0, "tests": 1},
    }
    result = {
        "env": "py312",
        "returncode": 0,
        "install_wall_s": 1.2,
        "install_cpu_s": 0.4,
        "wall_s": 10.0,
        "cpu_s": 18.0,
        "jax": sums,
        "modules": modules,
    }
    table = suite._table([result], top=1).splitlines()
    assert table[2] == "| py312 | 1 s, 0 s | 10 s, 18 s | 0 / 0 / 0 s (3) |"
    assert table[-1] == "- `tests/matrix/test_matrix.py`: 3 s, 2"
