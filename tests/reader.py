"""A reader's fresh Python session, for the tests that run scripts as a reader would
(tests/examples, tests/learn): the CPU, one device, none of the test session's flags, and
nothing of this repository importable (``python -P``)."""

from __future__ import annotations

import importlib.metadata
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
