"""Fixtures for the site tests: one strict build per session, served on 127.0.0.1.

The build goes to a temporary directory (``site/`` is left alone). The browser
tests use pytest-playwright with Debian's ``chromium`` (``playwright install``
cannot download a browser here); the root conftest skips them, with the reason,
where chromium or pytest-playwright is missing.
"""

from __future__ import annotations

import dataclasses
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOOKS = ROOT / "docs" / "hooks"
if str(HOOKS) not in sys.path:
    sys.path.insert(0, str(HOOKS))
ARTIFACTS = ROOT / "test-artifacts"


@dataclasses.dataclass(frozen=True)
class Build:
    site: Path
    returncode: int
    output: str
    seconds: float


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """``mkdocs build --strict`` into a temporary directory (no -q/-v: the anchor check stays on).

    The tox docs env builds the site with the same command just before pytest (two languages:
    about a minute on 2 cores) and names it in ``JAXCB_BUILT_SITE``: that build is used rather
    than a second one. The env has no JAX (its first command checks), as the build here proves."""
    built = os.environ.get("JAXCB_BUILT_SITE")
    if built and (Path(built) / "index.html").is_file():
        return Build(Path(built), 0, "built by `mkdocs build --strict` in the tox docs env", 0.0)
    site = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    runner = Path(__file__).with_name("build_without_jax.py")  # proves the site needs no JAX
    proc = subprocess.run(
        [sys.executable, str(runner), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    return Build(site, proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - start)


@pytest.fixture(scope="session")
def site(build: Build) -> Path:
    if build.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{build.output[-4000:]}")
    return build.site


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    """The built site served by http.server on 127.0.0.1, on a free port."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def base_url(site_url: str) -> str:
    """The served site. Overrides pytest-playwright's fallback ``base_url``, a fixture
    defined as an instance method, which pytest >= 9.1 deprecates (an error here:
    ``filterwarnings = error``)."""
    return site_url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's chromium: pytest-playwright's own browser download is not possible here."""
    chromium = shutil.which("chromium")
    args = dict(browser_type_launch_args)
    if chromium:
        args["executable_path"] = chromium
    return args


@pytest.fixture(scope="session")
def matrix_files() -> list[tuple[Path, dict[str, Any]]]:
    """The matrix files the site is built from: the committed ones under docs/data/matrix/
    (``JAXCB_SITE_MATRIX_DIR`` points the hook and these tests elsewhere while developing)."""
    from jaxcb_site.data import matrix_dir

    files = sorted(matrix_dir().glob("*.json"))  # read as JSON: the tests check the pages
    docs = [(p, json.loads(p.read_text(encoding="utf-8"))) for p in files]
    # the multi-process files have columns of their own, on their own page (distributed.md)
    return [(p, d) for p, d in docs if d["environment"].get("process_count", 1) == 1]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def visits(browser: Any, site: Path, site_url: str) -> Any:
    """Every built page, loaded once at each width (``visits.py``): what the browser saw."""
    from visits import visit_all

    return visit_all(browser, site, site_url)
