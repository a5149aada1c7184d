"""A reader's fresh Python session, for the tests that run scripts as a reader would
(tests/examples, tests/learn): the CPU, one device, none of the test session's flags, and
nothing of this repository importable (``python -P``). Also what every reader's script is
held to (tests/behaviour too): what it may import, and how its output is compared."""

from __future__ import annotations

import ast
import importlib.metadata
import math
import os
import platform
import re
import subprocess
import sys
from pathlib import Path


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


def run_python(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -P ARGS`` in ``cwd``, in a reader's fresh session; output captured."""
    return subprocess.run(
        [sys.executable, "-P", *args],
        cwd=cwd,
        env=fresh_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


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
