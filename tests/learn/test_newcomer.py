"""Lesson 7 from its page alone, as a newcomer with an empty folder follows it.

The page (``docs/learn/07-ffi-handler.md``) is read as a reader reads it: every file it shows
(``lesson-file``, whole) goes into an empty folder under its name, and the steps it shows
(``cell``), in the page's order, make ``07_ffi_handler.py``, as for a reader who copies them
into one file. Then every command of the page's ``bash`` blocks runs there, in order, each in
its own ``bash -e`` from that folder, with no environment activated (the test's own
environment is taken off ``PATH``, ``VIRTUAL_ENV`` unset) and a reader's settings (the CPU, no
device-count flags). Each command must exit 0, and the command that runs the script must print
what the lesson recorded for this JAX (``docs/data/lessons/<jax>.json``), line by line.

The one thing not run as written is the download. The page's install block (``python3 -m venv
.venv`` and ``.venv/bin/python -m pip install ...``) is stood in for by a ``.venv`` made from
this test's Python, that sees this test's JAX (a ``.pth`` file naming its site-packages, not
its editable installs) and has the system's ``cmake`` as ``.venv/bin/cmake``, where pip puts
its own. Each install command must be one the stand-in knows, and each package it names one
the stand-in has: an install block changed on the page fails here until the stand-in follows.

- ``JAXCB_NEWCOMER_PIP=1``: the install block runs as written instead (PyPI, about a minute;
  the output is then compared only where the JAX that pip chose has recorded outputs).
- ``JAXCB_NEWCOMER_CMAKE=/path/to/cmake``: the stand-in's CMake, e.g. pip's ``cmake==3.18.4``,
  the minimum the lesson's ``CMakeLists.txt`` declares.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import jax
import lessons as L
import pytest
from test_lessons import DATA, UPDATE, newest_here

from jaxcb_core.schema import load_lessons
from reader import fresh_env

pytestmark = pytest.mark.slow

LESSON = "07_ffi_handler"
PAGE = L.ROOT / "docs" / "learn" / "07-ffi-handler.md"
DIRECTIVE = re.compile(r"^[ \t]*<!-- jaxcb:(lesson-file|cell) (\S+) (\S+) -->[ \t]*$", re.M)
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```bash[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S
)
TIMEOUT_S = 600

# What the stand-in does for each install command the page may show.
VENV = re.compile(r"^python3? -m venv \.venv$")
PIP = re.compile(r"^\.venv/bin/python -m pip install (?P<packages>[A-Za-z0-9_. -]+)$")
STAND_IN_HAS = {"jax", "cmake"}


def page_parts(page: Path | None = None) -> tuple[dict[str, str], str, list[list[str]]]:
    """What the page shows: its files (name -> text), its steps in order joined into one
    script, and the commands of each ``bash`` block (one per non-empty line)."""
    page = page or PAGE
    text = page.read_text(encoding="utf-8")
    lesson = next(x for x in L.discover() if x.id == LESSON)
    sources = dict(lesson.cells)
    files: dict[str, str] = {}
    steps: list[str] = []
    for m in DIRECTIVE.finditer(text):
        kind, lesson_id, arg = m.groups()
        assert lesson_id == LESSON, f"{page.name} shows another lesson's {kind}: {lesson_id}"
        if kind == "lesson-file":
            files[arg] = (L.LESSONS / LESSON / arg).read_text(encoding="utf-8")
        else:
            steps.append(sources[arg])
    blocks = []
    for m in FENCE.finditer(text):
        lines = [ln.removeprefix(m.group("indent")).strip() for ln in m.group("body").splitlines()]
        blocks.append([ln for ln in lines if ln and not ln.startswith("#")])
    return files, "\n\n\n".join(steps) + "\n", blocks


def _reader_env(folder: Path) -> dict[str, str]:
    """A reader's shell in ``folder``: no environment activated, this test's one off PATH."""
    env = fresh_env()
    env.pop("VIRTUAL_ENV", None)
    here = {str(Path(sys.executable).parent), str(Path(sys.prefix, "bin"))}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p and p not in here
    )
    env["PWD"] = str(folder)
    return env


def _stand_in(command: str, folder: Path, cmake: str) -> str:
    """Do what ``command`` of the install block does, from what this machine has."""
    venv = folder / ".venv"
    if VENV.match(command):
        subprocess.run(
            [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
        )
        site = subprocess.run(
            [
                str(venv / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        Path(site, "jaxcb-newcomer.pth").write_text("\n".join(sorted(ours)) + "\n")
        return (
            f"stood in: a .venv of Python {sys.version.split()[0]} that sees JAX {jax.__version__}"
        )
    m = PIP.match(command)
    assert m, (
        f"{PAGE.name}: the install command {command!r} is none the stand-in knows "
        f"({VENV.pattern}, {PIP.pattern}): teach it here, or run with JAXCB_NEWCOMER_PIP=1"
    )
    packages = m.group("packages").split()
    unknown = sorted(set(packages) - STAND_IN_HAS)
    assert unknown == [], f"{PAGE.name}: the stand-in has no {unknown}: teach it here"
    assert venv.is_dir(), f"{PAGE.name}: {command!r} comes before the venv is made"
    if "cmake" in packages:
        (venv / "bin" / "cmake").symlink_to(cmake)
    return f"stood in: {', '.join(packages)} (cmake: {cmake})"


def _recorded(jax_version: str) -> str | None:
    path = DATA / f"{jax_version}.json"
    if not path.exists():
        return None
    entry = next((r for r in load_lessons(path).lessons if r.id == LESSON), None)
    if entry is None or entry.stopped is not None:
        return None
    return "".join(c.output for c in entry.cells)


def test_page_07_shows_every_file_and_step() -> None:
    """What the newcomer test copies is the whole lesson: every file beside the script, every
    step, an install block, the build commands and the command that runs the script."""
    files, script, blocks = page_parts()
    lesson = next(x for x in L.discover() if x.id == LESSON)
    assert sorted(files) == L.file_names(lesson)
    assert all(source in script for _, source in lesson.cells)
    commands = [c for block in blocks for c in block]
    assert any(PIP.match(c) for c in commands), commands
    assert any(re.match(r"\S*cmake --build build$", c) for c in commands), commands
    assert any(c.endswith(f" {LESSON}.py") for c in commands), commands


@pytest.mark.skipif(
    not newest_here(),
    reason=f"skipped: the newcomer runs the page on the newest recorded JAX; here "
    f"(JAX {jax.__version__}) the lesson runs cell by cell only (test_lesson)",
)
def test_lesson_07_from_its_page_in_an_empty_folder() -> None:
    files, script, blocks = page_parts()
    pip = os.environ.get("JAXCB_NEWCOMER_PIP") == "1"
    cmake = os.environ.get("JAXCB_NEWCOMER_CMAKE") or shutil.which("cmake")
    assert cmake, "no cmake on this machine (the lesson needs one)"
    log = []
    with tempfile.TemporaryDirectory(prefix="jaxcb-newcomer-") as tmp:
        folder = Path(tmp)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        (folder / f"{LESSON}.py").write_text(script, encoding="utf-8")
        log.append(f"$ ls\n{' '.join(sorted(p.name for p in folder.iterdir()))}")
        env = _reader_env(folder)
        t0 = time.perf_counter()
        printed = None
        for block in blocks:
            install = any(PIP.match(c) or VENV.match(c) for c in block)
            for command in block:
                if install and not pip:
                    log.append(f"$ {command}\n{_stand_in(command, folder, cmake)}")
                    continue
                done = subprocess.run(
                    ["bash", "-e", "-c", command],
                    cwd=folder,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=TIMEOUT_S,
                )
                assert done.returncode == 0, (
                    f"{PAGE.name}: `{command}` exited {done.returncode} in a newcomer's folder:\n"
                    f"{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
                )
                tail = done.stdout.strip().splitlines()[-3:]
                log.append(f"$ {command}\n" + "\n".join(tail))
                if shlex.split(command)[-1] == f"{LESSON}.py":
                    printed = done.stdout
                    log[-1] = f"$ {command}\n{done.stdout.rstrip()}"
        seconds = time.perf_counter() - t0
        version = subprocess.run(
            [str(folder / ".venv" / "bin" / "python"), "-c", "import jax; print(jax.__version__)"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.strip()
    print("\n".join(log) + f"\n-- the page's commands: {seconds:.1f} s (JAX {version})")
    assert printed is not None, f"{PAGE.name}: no command runs {LESSON}.py"
    expected = _recorded(version)
    if expected is None:
        assert pip, f"lesson {LESSON}: no recorded output for JAX {version}: run `{UPDATE}`"
        return
    # the CMake that built it is the newcomer's own (3.18 or newer): its version line may differ
    any_cmake = re.compile(r"^cmake version \S+$", re.M)
    diff = L.first_difference(
        any_cmake.sub("cmake version", expected), any_cmake.sub("cmake version", printed)
    )
    assert diff is None, (
        f"{PAGE.name}, run as a newcomer: {LESSON}.py printed other than recorded: {diff}"
    )
