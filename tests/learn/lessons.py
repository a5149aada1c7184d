"""The learning path's lessons: find them, run them as a reader would, compare their output.

A lesson is ``docs/learn/lessons/NN_slug.py``, a script in jupytext's percent format: code
cells ``# %% tags=["name"]`` (one tag each, unique in the lesson; the page includes a cell by
it) and markdown cells. A folder ``docs/learn/lessons/NN_slug/`` beside it holds files the
lesson needs in its working directory (the FFI lesson's C++ source and CMakeLists.txt): a
reader copies them beside the script, the tests copy them into an empty directory.

The notebook (``docs/learn/notebooks/NN_slug.ipynb``) is jupytext's conversion of the script
with what a notebook opened alone needs (:func:`notebook_text`): a lesson with files writes them
in its first code cell, from the files themselves (Colab and a downloaded notebook start in an
empty folder), and a lesson that sets the number of CPU devices says to start a fresh kernel.
The committed notebook is that conversion executed by nbclient in a fresh kernel in an empty
folder (:func:`execute_notebook`), with its outputs.

Each lesson runs twice, in fresh processes with nothing of this repository importable
(``python -P``), on the CPU with one device, in an empty directory: once as the plain script
(``python -P NN_slug.py``, what a reader who copies the file runs), once cell by cell
(``cellrun.py``, what a notebook runs), which gives each cell's output. Both must print the
same. Outputs are compared up to whitespace, numbers to a relative 1e-5 (the last digit a vector
unit rounds differently), and timings (a number with a unit of time: ``12.3 µs``) only as
numbers: they are what this machine measured when the output was recorded.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import json
import math
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: reader.py

from jaxcb_core.schema import lesson_sha256
from reader import READER_IMPORTS, imports, run_python

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "docs" / "learn" / "lessons"
NOTEBOOKS = ROOT / "docs" / "learn" / "notebooks"
CELLRUN = Path(__file__).resolve().parent / "cellrun.py"
TIMEOUT_S = 300

_TIME = r"(?:ns|µs|us|ms|s)\b"
_NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf"
TOKEN = re.compile(rf"(?P<time>(?:{_NUMBER})\s?{_TIME})|(?P<num>{_NUMBER})")
TAG = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclasses.dataclass(frozen=True)
class Lesson:
    id: str  # "01_first_pure_callback"
    path: Path
    cells: tuple[tuple[str, str], ...]  # (tag, source) of each code cell, in order

    @classmethod
    def from_path(cls, path: Path) -> Lesson:
        import jupytext

        nb = jupytext.read(path)
        cells = []
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            tags = list(cell.metadata.get("tags", []))
            if len(tags) != 1 or not TAG.match(tags[0]):
                raise ValueError(
                    f"{path.name}: code cell {i + 1} needs exactly one tag "
                    f'(# %% tags=["name"], lower-case), has {tags}'
                )
            cells.append((tags[0], cell.source))
        seen = [t for t, _ in cells]
        dupes = sorted({t for t in seen if seen.count(t) > 1})
        if dupes:
            raise ValueError(f"{path.name}: cell tags used twice: {dupes}")
        return cls(path.stem, path, tuple(cells))

    @property
    def files(self) -> Path | None:
        """The folder of files the lesson needs in its working directory, if any."""
        folder = self.path.with_suffix("")
        return folder if folder.is_dir() else None

    @property
    def sha256(self) -> str:
        """Of the script and every file it needs: an output belongs to exactly this code."""
        return lesson_sha256(self.path)


def discover() -> list[Lesson]:
    return [Lesson.from_path(p) for p in sorted(LESSONS.glob("[0-9][0-9]_*.py"))]


@dataclasses.dataclass
class Ran:
    lesson: str
    sha256: str
    cells: list[tuple[str, str]]
    error: dict[str, str] | None
    script_returncode: int | None  # None: the plain script was not run
    script_stdout: str
    script_stderr: str
    seconds: float  # wall time of the plain script (0: not run)
    # run as its notebook instead of cell by cell: what the lesson's files cell printed
    files_cell: str | None = None

    def joined(self) -> str:
        return "".join(out for _, out in self.cells)


def _workdir(lesson: Lesson, into: Path) -> None:
    if lesson.files:
        shutil.copytree(lesson.files, into, dirs_exist_ok=True)


def run(lesson: Lesson, script: bool = True) -> Ran:
    """The lesson cell by cell and (``script``) as a plain script, each in its own empty
    directory."""
    import time

    with tempfile.TemporaryDirectory(prefix=f"jaxcb-{lesson.id}-") as tmp:
        script_dir, cell_dir = Path(tmp, "script"), Path(tmp, "cells")
        script_dir.mkdir()
        cell_dir.mkdir()
        _workdir(lesson, script_dir)
        _workdir(lesson, cell_dir)
        copy = script_dir / lesson.path.name
        shutil.copyfile(lesson.path, copy)
        t0 = time.perf_counter()
        plain = run_python([copy.name], script_dir, TIMEOUT_S) if script else None
        seconds = time.perf_counter() - t0 if script else 0.0
        cells_json, out_json = Path(tmp, "cells.json"), Path(tmp, "out.json")
        cells_json.write_text(json.dumps([list(c) for c in lesson.cells]), encoding="utf-8")
        proc = run_python([str(CELLRUN), str(cells_json), str(out_json)], cell_dir, TIMEOUT_S)
        if not out_json.exists():
            raise RuntimeError(
                f"lesson {lesson.id}: the cell runner died ({proc.returncode}):\n"
                f"{proc.stderr[-3000:]}"
            )
        got = json.loads(out_json.read_text(encoding="utf-8"))
    return Ran(
        lesson=lesson.id,
        sha256=lesson.sha256,
        cells=[(t, o) for t, o in got["cells"]],
        error=got["error"],
        script_returncode=plain.returncode if plain else None,
        script_stdout=plain.stdout if plain else "",
        script_stderr=plain.stderr if plain else "",
        seconds=seconds,
    )


def _tokens(text: str) -> list[tuple[str, str]]:
    """``text`` as (kind, token): "text" runs without whitespace, "num" and "time" tokens."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in TOKEN.finditer(text):
        # a number glued to a word ("float32", "x2") is part of the word, not a value
        if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
            continue
        out.append(("text", re.sub(r"\s+", "", text[pos : m.start()])))
        out.append(("time" if m.group("time") else "num", m.group(0)))
        pos = m.end()
    out.append(("text", re.sub(r"\s+", "", text[pos:])))
    return [t for t in out if t != ("text", "")]


def _same_token(a: tuple[str, str], b: tuple[str, str], rtol: float, atol: float) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "text":
        return a[1] == b[1]
    if a[0] == "time":  # measured when recorded: same unit, any value
        return re.sub(rf"^.*?({_TIME})$", r"\1", a[1]) == re.sub(rf"^.*?({_TIME})$", r"\1", b[1])
    if a[1] == b[1]:
        return True
    fa, fb = float(a[1]), float(b[1])
    return math.isclose(fa, fb, rel_tol=rtol, abs_tol=atol) or (math.isnan(fa) and math.isnan(fb))


def first_difference(
    expected: str, actual: str, rtol: float = 1e-5, atol: float = 1e-6
) -> str | None:
    """None when the two outputs agree; else the first line that differs, quoted."""
    exp_lines, act_lines = expected.rstrip("\n").split("\n"), actual.rstrip("\n").split("\n")
    for i in range(max(len(exp_lines), len(act_lines))):
        e = exp_lines[i] if i < len(exp_lines) else "<no line>"
        a = act_lines[i] if i < len(act_lines) else "<no line>"
        te, ta = _tokens(e), _tokens(a)
        if len(te) != len(ta) or not all(
            _same_token(x, y, rtol, atol) for x, y in zip(te, ta, strict=True)
        ):
            return f"line {i + 1}: expected {e!r}, got {a!r}"
    return None


# A setting JAX takes only before its backends start: the lesson must start in a fresh Python.
FRESH = re.compile(r"""jax\.config\.update\(\s*["'](jax_num_cpu_devices|jax_platforms)["']""")
FILES_TAG = "files"  # the notebook's cell that writes the lesson's files


def needs_fresh_python(source: str) -> list[str]:
    """The settings in ``source`` that JAX accepts only before it has run anything."""
    return sorted(set(FRESH.findall(source)))


def _literal(text: str) -> str:
    """``text`` as a Python string literal a reader can read: raw and triple-quoted where
    that spells it exactly, else ``repr``."""
    for quote in ('"""', "'''"):
        lit = f"r{quote}{text}{quote}"
        if quote not in text and not text.endswith("\\"):
            try:
                if ast.literal_eval(lit) == text:
                    return lit
            except SyntaxError:
                pass
    return repr(text)


def file_names(lesson: Lesson) -> list[str]:
    """The files the lesson needs in its working directory, relative to it, sorted."""
    if lesson.files is None:
        return []
    return sorted(
        p.relative_to(lesson.files).as_posix() for p in lesson.files.rglob("*") if p.is_file()
    )


def files_cell(lesson: Lesson) -> str | None:
    """Python that writes the lesson's files into the working directory, from the files
    themselves (the notebook carries them: Colab and a download start in an empty folder)."""
    names = file_names(lesson)
    if lesson.files is None or not names:
        return None
    lines = [
        "# The files this lesson builds, as on its page, written into this notebook's folder.",
        "from pathlib import Path",
        "",
    ]
    for name in names:
        text = (lesson.files / name).read_text(encoding="utf-8")
        if "/" in name:
            lines.append(f'Path("{name}").parent.mkdir(parents=True, exist_ok=True)')
        lines.append(f'Path("{name}").write_text(\n    {_literal(text)},\n    encoding="utf-8",\n)')
    quoted = ", ".join(f'"{n}"' for n in names)
    lines += ["", f'print("wrote:", {quoted})']
    return "\n".join(lines)


FILES_NOTE = (
    "**This notebook carries its files.** Its {which} code cell writes {names} into the folder "
    "it runs in (in Colab, the session's folder), exactly as the lesson's page shows them, "
    "before anything builds them. The build needs CMake and a C++17 compiler (Colab has both)."
)
FRESH_NOTE = (
    "**Start from a fresh kernel.** The first code cell sets {settings}, which JAX accepts "
    "only before it has run anything: run this notebook from the top in a new kernel (in "
    "Colab: Runtime → Restart session), not after other code in the same one."
)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def notebook_text(lesson: Lesson) -> str:
    """The notebook made from the lesson's script by jupytext (no outputs), as JSON text,
    with what a notebook opened alone needs, before the first code cell: for a lesson that
    sets the number of CPU devices (or the platforms), a note to start from a fresh kernel;
    for a lesson with files, a note and a code cell that writes them (the first one, or the
    second where the first must set JAX up before anything runs)."""
    import jupytext
    from nbformat.v4 import new_code_cell, new_markdown_cell

    nb = jupytext.read(lesson.path)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    fresh = needs_fresh_python(lesson.path.read_text(encoding="utf-8"))
    writes = files_cell(lesson)
    notes = []
    if fresh:
        notes.append(FRESH_NOTE.format(settings=_and([f"`{s}`" for s in fresh])))
    if writes is not None:
        names = _and([f"`{n}`" for n in file_names(lesson)])
        notes.append(FILES_NOTE.format(which="second" if fresh else "first", names=names))
    if notes:
        nb.cells.insert(first, new_markdown_cell("\n\n".join(notes)))
        first += 1
    if writes is not None:
        nb.cells.insert(
            first + 1 if fresh else first, new_code_cell(writes, metadata={"tags": [FILES_TAG]})
        )
    for i, cell in enumerate(
        nb.cells
    ):  # stable ids (nbformat draws random ones): one file per script
        tags = cell.metadata.get("tags", [])
        cell["id"] = tags[0].replace("_", "-") if cell.cell_type == "code" and tags else f"text-{i}"
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    nb.metadata["language_info"] = {"name": "python"}
    return jupytext.writes(nb, fmt="ipynb")


MAGIC = re.compile(r"^\s*[%!]", re.M)  # IPython's magics and shell escapes


def notebook_cells(path: Path) -> list[tuple[str, str]]:
    """``(tag, source)`` of each code cell of a committed notebook, in order."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        tags = cell.get("metadata", {}).get("tags", [])
        if MAGIC.search(source):  # a Jupyter kernel would run it; plain Python cannot
            raise ValueError(f"{path.name}: code cell {i + 1} uses an IPython magic or shell line")
        out.append((tags[0] if tags else f"cell-{i + 1}", source))
    return out


def own_packages(lesson: Lesson) -> set[str]:
    """The Python packages among the lesson's own files (a folder with an ``__init__.py``),
    which the lesson builds and imports itself (lesson 9's ``ffi_softplus``)."""
    if lesson.files is None:
        return set()
    return {p.parent.name for p in lesson.files.rglob("__init__.py")}


def foreign_imports(lesson: Lesson) -> list[str]:
    """What the lesson imports beyond JAX, NumPy, SciPy, the standard library and the
    packages of its own files."""
    return sorted(imports(lesson.path) - READER_IMPORTS - own_packages(lesson))


# What an executed notebook records of the JAX that ran it (notebook metadata "jaxcb").
EXECUTED_KEY = "jaxcb"
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a terminal's colour codes


def execute_notebook(lesson: Lesson, jax_version: str, text: str | None = None) -> str:
    """The lesson's notebook (:func:`notebook_text`) executed by nbclient in a fresh Python
    kernel (ipykernel, this interpreter), in an empty temporary folder, on the CPU: the
    notebook a reader downloads, with the outputs it printed, as JSON text. A cell that
    raises keeps its error output and ends the run, as in Jupyter. The notebook's metadata
    names the JAX version that ran it (``jax_version``, the installed one). ``text``: another
    notebook of the lesson to execute instead (the committed one)."""
    import jupytext
    import nbclient
    import nbformat

    from reader import fresh_env

    nb = nbformat.reads(without_outputs(text) if text else notebook_text(lesson), as_version=4)
    with tempfile.TemporaryDirectory(prefix=f"jaxcb-nbx-{lesson.id}-") as tmp:
        work = Path(tmp, "empty")
        work.mkdir()
        client = nbclient.NotebookClient(
            nb,
            timeout=TIMEOUT_S,
            kernel_name="python3",
            record_timing=False,  # no timestamps: the file changes only when outputs do
            coalesce_streams=True,  # one stdout output per cell, however the kernel sent it
            resources={"metadata": {"path": str(work)}},
        )
        # a cell that raises keeps its error output, and the cells after it none
        with contextlib.suppress(nbclient.exceptions.CellExecutionError):
            client.execute(env=fresh_env())
    nb.metadata["language_info"] = {"name": "python"}  # as written: not the kernel's Python
    nb.metadata[EXECUTED_KEY] = {"jax": jax_version}
    return jupytext.writes(nb, fmt="ipynb")


def stored_outputs(path: Path) -> tuple[str | None, list[tuple[str, str]], dict[str, str] | None]:
    """What a committed notebook holds of its run: the JAX version that executed it (None:
    never executed), each code cell's printed text (its ``stdout`` streams, colour codes
    left out) by tag, up to the cell that raised, and that cell's error as ``{"cell", "line"}`` (the recorded data's form)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    version = nb.get("metadata", {}).get(EXECUTED_KEY, {}).get("jax")
    cells: list[tuple[str, str]] = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or cell.get("execution_count") is None:
            continue
        tag = cell.get("metadata", {}).get("tags", ["?"])[0]
        text, error = "", None
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream" and out["name"] == "stdout":
                text += "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            elif out["output_type"] == "error":
                first = out["evalue"].strip().splitlines()
                line = f"{out['ename']}: {first[0]}" if first else out["ename"]
                error = {"cell": tag, "line": line}
        # JAX colours a printed jaxpr in a kernel (Jupyter shows the colours): the text is
        # what the script prints
        cells.append((tag, ANSI.sub("", text)))
        if error:
            return version, cells, error
    return version, cells, None


def without_outputs(text: str) -> str:
    """A notebook's JSON text with no outputs, execution counts or run metadata: what
    :func:`notebook_text` makes, for a notebook executed from it."""
    import jupytext
    import nbformat

    nb = nbformat.reads(text, as_version=4)
    nb.metadata.pop(EXECUTED_KEY, None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return jupytext.writes(nb, fmt="ipynb")
