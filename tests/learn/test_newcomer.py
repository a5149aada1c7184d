"""Lessons 7 and 9 from their pages alone, as a newcomer with an empty folder follows them.

The page (``docs/learn/07-ffi-handler.md``, ``docs/learn/09-ffi-all-the-way.md``) is read as a
reader reads it: every file it shows (``lesson-file``, whole) goes into an empty folder under its
name (a name with a folder in it, into that folder), and the steps it shows (``cell``), in the
page's order, make ``NN_slug.py``, as for a reader who copies them into one file. Then every
command of the page's ``bash`` blocks runs there, in order, each in its own ``bash -e`` from
that folder, with no environment activated (the test's own environment is taken off ``PATH``,
``VIRTUAL_ENV`` unset) and a reader's settings (the CPU, no device-count flags). Each command
must exit 0, and the command that runs the script must print what the lesson recorded for this
JAX (``docs/data/lessons/<jax>.json``), line by line. A command that uses the package a page
builds (lesson 9's ``ffi_softplus``, installed by ``pip install --no-build-isolation``, run as
written) must print the numbers the lesson's step recorded for it.

The one thing not run as written is the download. The page's install block (``python3 -m venv
.venv`` and ``.venv/bin/python -m pip install ...``) is stood in for by a ``.venv`` made from
this test's Python, that sees this test's JAX (a ``.pth`` file naming its site-packages, not
its editable installs) and has the system's ``cmake`` as ``.venv/bin/cmake``, where pip puts
its own; where the page installs a package of its own with pip, the ``.venv`` has pip, and
scikit-build-core comes from uv's cache (``uv pip install --offline``; without uv, from PyPI).
Each install command must be one the stand-in knows, and each package it names one the
stand-in has: an install block changed on the page fails here until the stand-in follows.

- ``JAXCB_NEWCOMER_PIP=1``: the install block runs as written instead (PyPI, about a minute;
  the output is then compared only where the JAX that pip chose has recorded outputs).
- ``JAXCB_NEWCOMER_CMAKE=/path/to/cmake``: the stand-in's CMake, e.g. pip's ``cmake==3.18.4``,
  the minimum the lessons' ``CMakeLists.txt`` declare.
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

PAGES = {
    "07_ffi_handler": L.ROOT / "docs" / "learn" / "07-ffi-handler.md",
    "09_ffi_all_the_way": L.ROOT / "docs" / "learn" / "09-ffi-all-the-way.md",
}
# A command that calls what the page's own package installed, the lesson's step that printed
# the same numbers, and the line of it that has them.
USES_PACKAGE = {"09_ffi_all_the_way": ("from ffi_softplus import", "package", "softplus:")}
DIRECTIVE = re.compile(r"^[ \t]*<!-- jaxcb:(lesson-file|cell) (\S+) (\S+) -->[ \t]*$", re.M)
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```bash[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S
)
TIMEOUT_S = 600

# What the stand-in does for each install command the page may show.
VENV = re.compile(r"^python3? -m venv \.venv$")
PIP = re.compile(r"^\.venv/bin/python -m pip install (?P<packages>[A-Za-z0-9_. -]+)$")
PIP_LOCAL = re.compile(r"^\.venv/bin/python -m pip install .*\./")  # a folder of the page's
STAND_IN_HAS = {"jax", "cmake", "scikit-build-core"}
UV = shutil.which("uv") or str(Path.home() / ".local" / "bin" / "uv")


def page_parts(lesson_id: str) -> tuple[dict[str, str], str, list[list[str]]]:
    """What the page shows: its files (name -> text), its steps in order joined into one
    script, and the commands of each ``bash`` block (one per non-empty line)."""
    page = PAGES[lesson_id]
    text = page.read_text(encoding="utf-8")
    lesson = next(x for x in L.discover() if x.id == lesson_id)
    sources = dict(lesson.cells)
    files: dict[str, str] = {}
    steps: list[str] = []
    for m in DIRECTIVE.finditer(text):
        kind, lesson_id, arg = m.groups()
        assert lesson_id == lesson.id, f"{page.name} shows another lesson's {kind}: {lesson_id}"
        if kind == "lesson-file":
            files[arg] = (L.LESSONS / lesson.id / arg).read_text(encoding="utf-8")
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


def _stand_in(command: str, folder: Path, cmake: str, page: Path, with_pip: bool) -> str:
    """Do what ``command`` of the install block does, from what this machine has."""
    venv = folder / ".venv"
    if VENV.match(command):
        pip = [] if with_pip else ["--without-pip"]
        subprocess.run([sys.executable, "-m", "venv", *pip, str(venv)], check=True, timeout=300)
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
        f"{page.name}: the install command {command!r} is none the stand-in knows "
        f"({VENV.pattern}, {PIP.pattern}): teach it here, or run with JAXCB_NEWCOMER_PIP=1"
    )
    packages = m.group("packages").split()
    unknown = sorted(set(packages) - STAND_IN_HAS)
    assert unknown == [], f"{page.name}: the stand-in has no {unknown}: teach it here"
    assert venv.is_dir(), f"{page.name}: {command!r} comes before the venv is made"
    if "cmake" in packages:
        (venv / "bin" / "cmake").symlink_to(cmake)
    how = ""
    if "scikit-build-core" in packages:  # a build tool, pure Python: uv's cache, else PyPI
        python = str(venv / "bin" / "python")
        offline = [UV, "pip", "install", "--offline", "--python", python, "scikit-build-core"]
        got = subprocess.run(offline, capture_output=True, text=True, timeout=300)
        how = "from uv's cache"
        if got.returncode != 0:
            got = subprocess.run(
                [python, "-m", "pip", "install", "scikit-build-core"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            how = "from PyPI"
        assert got.returncode == 0, f"scikit-build-core for the stand-in:\n{got.stderr[-2000:]}"
        how = f", scikit-build-core {how}"
    return f"stood in: {', '.join(packages)} (cmake: {cmake}{how})"


def _recorded(jax_version: str, lesson: str) -> dict[str, str] | None:
    """The lesson's recorded outputs on this JAX, by step; None where it stops or has none."""
    path = DATA / f"{jax_version}.json"
    if not path.exists():
        return None
    entry = next((r for r in load_lessons(path).lessons if r.id == lesson), None)
    if entry is None or entry.stopped is not None:
        return None
    return {c.tag: c.output for c in entry.cells}


def _numbers(line: str) -> list[float]:
    return [float(n) for n in re.findall(r"[-+]?\d+\.\d*(?:e[-+]?\d+)?", line)]


@pytest.mark.parametrize("lesson_id", list(PAGES))
def test_page_shows_every_file_and_step(lesson_id: str) -> None:
    """What the newcomer test copies is the whole lesson: every file beside the script, every
    step, an install block, the build commands and the command that runs the script."""
    files, script, blocks = page_parts(lesson_id)
    lesson = next(x for x in L.discover() if x.id == lesson_id)
    assert sorted(files) == L.file_names(lesson)
    assert all(source in script for _, source in lesson.cells)
    commands = [c for block in blocks for c in block]
    assert any(PIP.match(c) for c in commands), commands
    assert any(re.match(r"\S*cmake --build build$", c) for c in commands), commands
    assert any(c.endswith(f" {lesson_id}.py") for c in commands), commands


@pytest.mark.skipif(
    not newest_here(),
    reason=f"skipped: the newcomer runs the page on the newest recorded JAX; here "
    f"(JAX {jax.__version__}) the lesson runs cell by cell only (test_lesson)",
)
@pytest.mark.parametrize("lesson_id", list(PAGES))
def test_lesson_from_its_page_in_an_empty_folder(lesson_id: str) -> None:
    page = PAGES[lesson_id]
    files, script, blocks = page_parts(lesson_id)
    with_pip = any(PIP_LOCAL.match(c) for block in blocks for c in block)
    pip = os.environ.get("JAXCB_NEWCOMER_PIP") == "1"
    cmake = os.environ.get("JAXCB_NEWCOMER_CMAKE") or shutil.which("cmake")
    assert cmake, "no cmake on this machine (the lesson needs one)"
    log = []
    with tempfile.TemporaryDirectory(prefix="jaxcb-newcomer-") as tmp:
        folder = Path(tmp)
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        (folder / f"{lesson_id}.py").write_text(script, encoding="utf-8")
        log.append(f"$ ls\n{' '.join(sorted(p.name for p in folder.iterdir()))}")
        env = _reader_env(folder)
        t0 = time.perf_counter()
        printed = None
        uses = USES_PACKAGE.get(lesson_id)
        package_printed = None
        for block in blocks:
            install = any(PIP.match(c) or VENV.match(c) for c in block)
            for command in block:
                if install and not pip:
                    stood = _stand_in(command, folder, cmake, page, with_pip)
                    log.append(f"$ {command}\n{stood}")
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
                    f"{page.name}: `{command}` exited {done.returncode} in a newcomer's folder:\n"
                    f"{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
                )
                tail = done.stdout.strip().splitlines()[-3:]
                log.append(f"$ {command}\n" + "\n".join(tail))
                if shlex.split(command)[-1] == f"{lesson_id}.py":
                    printed = done.stdout
                    log[-1] = f"$ {command}\n{done.stdout.rstrip()}"
                if uses and uses[0] in command:
                    package_printed = done.stdout
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
    assert printed is not None, f"{page.name}: no command runs {lesson_id}.py"
    recorded = _recorded(version, lesson_id)
    if recorded is None:
        assert pip, f"lesson {lesson_id}: no recorded output for JAX {version}: run `{UPDATE}`"
        return
    expected = "".join(recorded.values())
    if uses:
        assert package_printed is not None, f"{page.name}: no command runs {uses[0]!r}"
        line = next(ln for ln in recorded[uses[1]].splitlines() if ln.startswith(uses[2]))
        want, got = _numbers(line), _numbers(package_printed)
        message = f"{page.name}: the installed package printed {package_printed!r}, not {line!r}"
        assert len(want) == len(got), message
        assert all(abs(a - b) <= 1e-4 * max(1.0, abs(a)) for a, b in zip(want, got, strict=True)), (
            message
        )
    # the CMake that built it is the newcomer's own (3.18 or newer): its version line may differ
    any_cmake = re.compile(r"^cmake version \S+$", re.M)
    diff = L.first_difference(
        any_cmake.sub("cmake version", expected), any_cmake.sub("cmake version", printed)
    )
    assert diff is None, (
        f"{page.name}, run as a newcomer: {lesson_id}.py printed other than recorded: {diff}"
    )


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="skipped: no nvcc (the CUDA compiler)")
@pytest.mark.skipif(
    not newest_here(),
    reason=f"skipped: built against the newest recorded JAX's headers; JAX {jax.__version__} "
    "is not it (on 0.4.30 there is no jax.ffi to build against)",
)
def test_cuda_handler_of_lesson_09_compiles() -> None:
    """Lesson 9's CUDA handler, as its page shows it (``cuda/sin_scale.cu`` and
    ``cuda/CMakeLists.txt``), builds with ``nvcc`` against this jaxlib's headers: the lesson
    runs it only where JAX has a GPU, so this is where a machine without one checks it."""
    files, _, _ = page_parts("09_ffi_all_the_way")
    cmake = os.environ.get("JAXCB_NEWCOMER_CMAKE") or shutil.which("cmake")
    assert cmake, "no cmake on this machine (the lesson needs one)"
    with tempfile.TemporaryDirectory(prefix="jaxcb-cuda-") as tmp:
        folder = Path(tmp)
        for name in ["cuda/sin_scale.cu", "cuda/CMakeLists.txt"]:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(files[name], encoding="utf-8")
        for command in [
            [cmake, "-S", "cuda", "-B", "cuda/build", f"-DPython_EXECUTABLE={sys.executable}"],
            [cmake, "--build", "cuda/build"],
        ]:
            done = subprocess.run(
                command, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT_S
            )
            assert done.returncode == 0, f"{command}:\n{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
        assert (folder / "cuda" / "build" / "libsin_scale_cuda.so").is_file()
