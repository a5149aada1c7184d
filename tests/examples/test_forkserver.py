"""The reader's session the examples, lessons and behaviour scripts run in (``reader.run_python``,
forked by ``tests/forkserver.py``) behaves as ``python -P script.py`` would."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from reader import run_python


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


TESTS = Path(__file__).resolve().parents[1]


def test_argv_cwd_streams_and_exit_code(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        f"""
        import os, sys
        print("argv", sys.argv[1:], "main", __name__)
        print("cwd", os.getcwd())
        print("to stderr", file=sys.stderr)
        print("stdin", repr(sys.stdin.read()))
        here = {[str(TESTS), str(TESTS.parent), str(TESTS / "examples")]!r}
        print("repository importable", any(p in sys.path for p in here))
        sys.exit(3)
        """,
    )
    ran = run_python([path.name, "a", "b"], tmp_path, 60)
    assert ran.returncode == 3
    assert ran.stdout.splitlines() == [
        "argv ['a', 'b'] main __main__",
        f"cwd {tmp_path}",
        "stdin ''",
        "repository importable False",
    ]
    assert ran.stderr == "to stderr\n"


def test_an_uncaught_exception_is_printed_from_the_script_on(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
        def f():
            raise ValueError("boom")
        f()
        """,
    )
    ran = run_python([str(path)], tmp_path, 60)
    assert ran.returncode == 1
    lines = ran.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{path}", line 4, in <module>'
    assert lines[-1] == "ValueError: boom"
    assert "forkserver" not in ran.stderr
    assert "runpy" not in ran.stderr


def test_code_with_dash_c(tmp_path: Path) -> None:
    ran = run_python(["-c", "import sys; print(sys.argv); 1 / 0", "x"], tmp_path, 60)
    assert (ran.returncode, ran.stdout) == (1, "['-c', 'x']\n")
    assert ran.stderr.splitlines()[1:] == [
        '  File "<string>", line 1, in <module>',
        "ZeroDivisionError: division by zero",
    ]


def test_the_script_chooses_its_devices(tmp_path: Path) -> None:
    """No backend exists before the script runs: a device count it sets takes effect."""
    import jax

    if not hasattr(jax.config, "jax_num_cpu_devices"):
        pytest.skip(f"JAX {jax.__version__} has no jax_num_cpu_devices")
    path = _script(
        tmp_path,
        """
        import jax
        jax.config.update("jax_num_cpu_devices", 3)
        print(len(jax.devices()), jax.default_backend())
        """,
    )
    ran = run_python([str(path)], tmp_path, 60)
    assert (ran.returncode, ran.stdout) == (0, "3 cpu\n"), ran.stderr


def test_a_timeout_kills_the_script_and_what_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    path = _script(
        tmp_path,
        f"""
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        print("started", flush=True)
        time.sleep(60)
        """,
    )
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as info:
        run_python([str(path)], tmp_path, 2)
    assert time.monotonic() - start < 30
    assert info.value.output == "started\n"
    child = int(pid_file.read_text())
    for _ in range(50):  # the grandchild was in the script's process group
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(child, 9)
        pytest.fail(f"the script's child {child} outlived the timeout")


def test_the_interpreter_is_this_one() -> None:
    ran = run_python(["-c", "import sys; print(sys.executable)"], Path.cwd(), 60)
    assert ran.stdout == f"{sys.executable}\n"


def test_requests_that_arrive_together_all_run(tmp_path: Path) -> None:
    """Several requests in one write (the test sessions send from several threads) each
    start a child and get an answer: none waits unseen behind another."""
    import json

    from reader import FORKSERVER, fresh_env

    lines = "".join(
        json.dumps(
            {
                "id": i,
                "argv": ["-c", f"print({i})"],
                "cwd": str(tmp_path),
                "stdout": str(tmp_path / f"out{i}"),
                "stderr": str(tmp_path / f"err{i}"),
                "timeout": 60,
            }
        )
        + "\n"
        for i in range(3)
    )
    server = subprocess.Popen(
        [sys.executable, "-P", str(FORKSERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=fresh_env(),
    )
    assert server.stdin is not None
    assert server.stdout is not None
    try:
        server.stdin.write(lines)  # one write; the input stays open, as in a test session
        server.stdin.flush()
        got, deadline = b"", time.monotonic() + 60
        while got.count(b"\n") < 3 and time.monotonic() < deadline:
            ready, _, _ = select.select([server.stdout], [], [], 1)
            if ready:
                got += os.read(server.stdout.fileno(), 1 << 16)
        answers = [json.loads(line)["id"] for line in got.splitlines()]
    finally:
        server.stdin.close()
        server.wait(timeout=60)
        server.stdout.close()
    assert sorted(answers) == [0, 1, 2]
    assert [(tmp_path / f"out{i}").read_text() for i in range(3)] == ["0\n", "1\n", "2\n"]
