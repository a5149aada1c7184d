"""Session-wide test setup shared by every test tree under tests/.

- JAX gets 4 CPU devices before its first computation (sharding, pmap and shard_map
  cases need more than one device): ``jax_num_cpu_devices`` where the installed JAX has
  it, otherwise ``--xla_force_host_platform_device_count`` in ``XLA_FLAGS``, which XLA
  reads when the CPU backend starts.
- The session header names JAX, jaxlib, NumPy, Python, the platform and ``jax.devices()``.
- ``gpu`` tests are skipped where JAX has no GPU backend, ``browser`` tests where Debian's
  ``chromium`` or pytest-playwright is missing, benchmarks unless ``--benchmark-only`` is
  given, ``multiprocess`` tests unless ``--multiprocess`` is; every skip says why.
- The summary ends with the session's wall time and CPU-minutes, child processes included.

Run as a script (``python tests/conftest.py``) it prints the same banner; the tox test
environments do that before pytest starts. The docs environment has no JAX at all (the
site is built from data files only): there the banner says so and nothing else changes.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import resource
import shutil
import sys
import time
from typing import Any

import pytest

try:
    import jax
except ImportError:  # the docs environment: the site is built without JAX
    jax = None

N_CPU_DEVICES = 4
_XLA_FLAG = "--xla_force_host_platform_device_count"


def _set_cpu_device_count(n: int) -> str:
    """Ask for ``n`` CPU devices before any backend starts; say how it was done."""
    if jax is None:
        return "no JAX installed"
    if os.environ.get("JAX_NUM_CPU_DEVICES") or _XLA_FLAG in os.environ.get("XLA_FLAGS", ""):
        return "as set in the environment"
    try:
        jax.config.update("jax_num_cpu_devices", n)
    except AttributeError:
        # JAX before jax_num_cpu_devices existed (the legacy 0.4.30 environment).
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_XLA_FLAG}={n}".strip()
        return f"XLA_FLAGS={_XLA_FLAG}={n}"
    except RuntimeError:
        # A backend already started (something computed before this conftest loaded).
        return "backend already initialised: left as it was"
    return f"jax_num_cpu_devices={n}"


_HOW = _set_cpu_device_count(N_CPU_DEVICES)


def _gpu_devices() -> list[Any]:
    if jax is None:
        return []
    try:
        return list(jax.devices("gpu"))
    except RuntimeError:  # "Unknown backend gpu" / "Backend 'gpu' failed to initialize"
        return []


def _chromium() -> str | None:
    return shutil.which("chromium")


def banner() -> list[str]:
    """The lines printed at the top of every test session."""
    python = f"Python {platform.python_version()} ({platform.python_implementation()})"
    lines = [f"jaxcb: platform {platform.platform()}, {os.cpu_count()} CPU cores"]
    if jax is None:
        lines.insert(0, f"jaxcb: JAX not installed (the site is built without it), {python}")
    else:
        import numpy as np

        devices = jax.devices()
        lines.insert(
            0,
            f"jaxcb: JAX {jax.__version__}, jaxlib {importlib.metadata.version('jaxlib')}, "
            f"NumPy {np.__version__}, {python}",
        )
        lines += [
            f"jaxcb: backend {jax.default_backend()}, {len(devices)} device(s) ({_HOW}), "
            f"{jax.process_count()} process(es)",
            f"jaxcb: jax.devices() = {devices}",
        ]
    return [*lines, f"jaxcb: chromium = {_chromium() or 'not installed'}"]


def pytest_addoption(parser: pytest.Parser) -> None:
    # Here rather than in tests/matrix/: pytest reads this conftest before it knows which
    # tests run, so `tox -e py312 -- --update-matrix` works without naming tests/matrix.
    parser.addoption(
        "--update-matrix",
        action="store_true",
        default=False,
        help="rewrite docs/data/matrix/<jax>-<platform>-<n>.json from the cells this run measured",
    )
    parser.addoption(
        "--multiprocess",
        action="store_true",
        default=False,
        help="run the multi-process tests (tests/distributed; `tox -e multiprocess` does)",
    )
    parser.addoption(
        "--update-behaviour",
        action="store_true",
        default=False,
        help="rewrite docs/data/behaviour/<jax>-<platform>-<n>.json from what this run measured",
    )
    parser.addoption(
        "--update-examples",
        action="store_true",
        default=False,
        help="rewrite docs/data/examples/<jax>.json from the outputs of the examples this run ran",
    )
    parser.addoption(
        "--update-lessons",
        action="store_true",
        default=False,
        help="rewrite docs/data/lessons/<jax>.json from the lessons this run ran, and the "
        "lessons' notebooks (docs/learn/notebooks/) from their scripts",
    )


_STARTED = time.perf_counter()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The session's wall time and CPU time, its child processes included (matrix workers,
    fresh reader processes, the browser): what `scripts/dev test` costs, env by env."""
    reader = sys.modules.get("reader")
    if reader is not None:  # its fork server, waited for: its scripts' CPU time counts
        reader.shutdown()
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    wall = time.perf_counter() - _STARTED
    terminalreporter.write_line(
        f"jaxcb: this session took {wall:.0f} s and {cpu / 60:.1f} CPU-minutes "
        f"({os.cpu_count()} cores; child processes included)"
    )


def pytest_report_header(config: pytest.Config) -> list[str]:
    return banner()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu_reason = browser_reason = bench_reason = None

    if any(item.get_closest_marker("gpu") for item in items) and not _gpu_devices():
        seen = jax.devices() if jax is not None else "JAX not installed"
        gpu_reason = f"no GPU backend on this machine (jax.devices() = {seen})"

    if any(item.get_closest_marker("browser") for item in items):
        if _chromium() is None:
            browser_reason = (
                "Debian's chromium is not installed (shutil.which('chromium') is None); "
                "`apt-get install chromium`, or run `scripts/dev test` as root"
            )
        elif importlib.util.find_spec("pytest_playwright") is None:
            browser_reason = "pytest-playwright is not installed (the docs tox env has it)"

    if not config.getoption("benchmark_only", default=False):
        bench_reason = "benchmarks are off by default: run `tox -e bench` (pytest --benchmark-only)"

    multiprocess_reason = None
    if not config.getoption("multiprocess", default=False):
        multiprocess_reason = (
            "multi-process tests start JAX jobs of several processes (about a minute): "
            "run `tox -e multiprocess` (pytest --multiprocess)"
        )

    for item in items:
        if multiprocess_reason and item.get_closest_marker("multiprocess"):
            item.add_marker(pytest.mark.skip(reason=f"skipped: {multiprocess_reason}"))
        if gpu_reason and item.get_closest_marker("gpu"):
            item.add_marker(pytest.mark.skip(reason=f"skipped: {gpu_reason}"))
        if browser_reason and item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.skip(reason=f"skipped: {browser_reason}"))
        uses_benchmark = "benchmark" in getattr(item, "fixturenames", ())
        if bench_reason and (uses_benchmark or item.get_closest_marker("bench")):
            item.add_marker(pytest.mark.skip(reason=f"skipped: {bench_reason}"))
