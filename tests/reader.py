"""A reader's fresh Python session, for the tests that run scripts as a reader would
(tests/examples, tests/learn): the CPU, one device, none of the test session's flags, and
nothing of this repository importable (``python -P``). Also what every reader's script is
held to (tests/behaviour too): what it may import, and how its output is compared.

The sessions are forked from one interpreter per test session that has imported JAX,
NumPy and SciPy and done nothing else (``forkserver.py``): the same interpreter, flags and
environment as ``python -P script.py``, without a CPU-second of imports per script."""

from __future__ import annotations

import ast
import atexit
import importlib.metadata
import itertools
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path

FORKSERVER = Path(__file__).resolve().parent / "forkserver.py"


def fresh_env() -> dict[str, str]:
    """The environment of a reader's new session: no device-count flags of this test session."""
    env = {k: v for k, v in os.environ.items() if k not in {"JAX_NUM_CPU_DEVICES", "PYTHONPATH"}}
    flags = re.sub(r"--xla_force_host_platform_device_count=\d+", "", env.get("XLA_FLAGS", ""))
    if flags.strip():
        env["XLA_FLAGS"] = flags.strip()
    else:
        env.pop("XLA_FLAGS", None)
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class _ForkServer:
    """``python -P forkserver.py`` in a reader's environment, and the scripts it runs."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="jaxcb-forkserver-")
        self._log = Path(self._tmp.name, "server.log")
        with self._log.open("w") as log:
            self._proc = subprocess.Popen(
                [sys.executable, "-P", str(FORKSERVER)],
                cwd=self._tmp.name,
                env=fresh_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._waiting: dict[int, Future[int | None]] = {}
        self._thread = threading.Thread(target=self._answers, daemon=True)
        self._thread.start()

    def _answers(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            answer = json.loads(line)
            with self._lock:
                future = self._waiting.pop(answer["id"])
            future.set_result(answer["returncode"])
        self._proc.wait()
        with self._lock:
            waiting, self._waiting = self._waiting, {}
        log = self._log.read_text(errors="replace")[-3000:] if self._log.exists() else ""
        for future in waiting.values():
            future.set_exception(
                RuntimeError(f"the fork server died ({self._proc.returncode}):\n{log}")
            )

    def run(self, args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="jaxcb-run-") as tmp:
            out, err = Path(tmp, "stdout"), Path(tmp, "stderr")
            future: Future[int | None] = Future()
            with self._lock:
                if self._proc.poll() is not None or self._proc.stdin is None:
                    raise RuntimeError(f"the fork server is gone ({self._proc.returncode})")
                rid = next(self._ids)
                self._waiting[rid] = future
                request = {
                    "id": rid,
                    "argv": args,
                    "cwd": str(cwd),
                    "stdout": str(out),
                    "stderr": str(err),
                    "timeout": timeout,
                }
                self._proc.stdin.write(json.dumps(request) + "\n")
                self._proc.stdin.flush()
            returncode = future.result()
            stdout = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
            stderr = err.read_text(encoding="utf-8", errors="replace") if err.exists() else ""
        argv = [sys.executable, "-P", *args]
        if returncode is None:
            raise subprocess.TimeoutExpired(argv, timeout, output=stdout, stderr=stderr)
        return subprocess.CompletedProcess(argv, returncode, stdout, stderr)

    def close(self) -> None:
        if self._proc.stdin is not None and not self._proc.stdin.closed:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._thread.join(timeout=60)
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._tmp.cleanup()


_server: _ForkServer | None = None
_server_lock = threading.Lock()


def shutdown() -> None:
    """Stop the fork server once its scripts are done (a later script starts another)."""
    global _server
    with _server_lock:
        server, _server = _server, None
    if server is not None:
        server.close()


atexit.register(shutdown)


def run_python(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -P ARGS`` in ``cwd``, in a reader's fresh session (forked, see above);
    output captured; :class:`subprocess.TimeoutExpired` after ``timeout`` seconds."""
    global _server
    with _server_lock:
        if _server is None:
            _server = _ForkServer()
        server = _server
    return server.run(args, cwd, timeout)


def versions() -> dict[str, str]:
    """JAX, jaxlib, Python, NumPy and SciPy as installed, and the platform the scripts run on."""
    import jax
    import numpy
    import scipy

    return {
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "platform": "cpu",
    }


# What a reader's script may import: JAX, NumPy, SciPy and the standard library.
READER_IMPORTS = frozenset({"jax", "jaxlib", "numpy", "scipy", *sys.stdlib_module_names})
NUMBER = re.compile(r"([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)")


def imports(path: Path) -> set[str]:
    """The top-level modules the script at ``path`` imports (relative imports left out)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def same_output(expected: str, actual: str, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Equal up to whitespace, numbers to ``rtol``/``atol``."""
    a, b = NUMBER.split(expected), NUMBER.split(actual)
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if i % 2 == 0:
            if re.sub(r"\s+", "", x) != re.sub(r"\s+", "", y):
                return False
        elif x != y:
            fx, fy = float(x), float(y)
            if not (math.isclose(fx, fy, rel_tol=rtol, abs_tol=atol) or fx == fy):
                return False
    return True
