"""The learning path: every lesson runs as copied and prints what its page shows.

Each lesson (``docs/learn/lessons/NN_slug.py``, see ``lessons.py``) runs as a plain script and
cell by cell, in fresh processes, on the installed JAX. Its cells' outputs must match
``docs/data/lessons/<jax>.json``; where the lesson stops on this JAX (an API it lacks), the
stop must be the recorded one. The plain script must print what the cells print together, and
the lesson's notebook (``docs/learn/notebooks/NN_slug.ipynb``) must be what jupytext makes of the
script, with what a notebook opened alone needs (``lessons.notebook_text``), and carry the
outputs of its own run as a notebook on the newest recorded JAX, which must be the recorded
ones (a cheap check: nothing runs); a notebook that carries the lesson's files is executed
here as a notebook (nbclient, a fresh kernel), alone in an empty folder, and prints the
recorded outputs. ``pytest tests/learn --update-lessons`` rewrites the data file of this JAX
and, on the newest recorded JAX, executes the notebooks and writes them with their outputs
(``-k test_notebook_is_the_script``: the notebooks only; all nine took 177 s on 2 busy
cores, lesson 7 with its C++ build 75 s of it). Every failure names the lesson and the first
line that differs.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import tempfile
from pathlib import Path

import jax
import lessons as L
import pytest

from jaxcb_core.environment import cpu_model
from jaxcb_core.schema import (
    LessonCell,
    LessonEnvironment,
    LessonRun,
    LessonsFile,
    LessonStop,
    dump,
    load_lessons,
)
from reader import versions

pytestmark = pytest.mark.slow

DATA = L.ROOT / "docs" / "data" / "lessons"
UPDATE = "pytest tests/learn --update-lessons"
LESSONS = L.discover()
IDS = [lesson.id for lesson in LESSONS]


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v))


def newest_here() -> bool:
    """True where the installed JAX is the newest one with recorded lessons (or newer)."""
    recorded = [p.stem for p in DATA.glob("*.json")]
    return all(_version(jax.__version__) >= _version(v) for v in recorded)


def data_path() -> Path:
    return DATA / f"{jax.__version__}.json"


def committed() -> dict[str, LessonRun]:
    path = data_path()
    return {r.id: r for r in load_lessons(path).lessons} if path.exists() else {}


def environment(load: float) -> LessonEnvironment:
    return LessonEnvironment(
        **versions(),
        processor=cpu_model(),
        cores=os.cpu_count() or 1,
        load=round(load, 2),
    )


def record(ran: L.Ran) -> LessonRun:
    return LessonRun(
        id=ran.lesson,
        source_sha256=ran.sha256,
        cells=[LessonCell(tag=t, output=o) for t, o in ran.cells],
        stopped=LessonStop(**ran.error) if ran.error else None,
    )


def write(runs: dict[str, L.Ran], load: float) -> Path:
    """This JAX's data file from this session's runs (lessons not run now keep their entry
    while their script exists; the file's load is then the higher of the two runs')."""
    path = data_path()
    keep = {i: r for i, r in committed().items() if i in IDS and i not in runs}
    if keep:
        load = max(load, load_lessons(path).environment.load)
    merged = {**keep, **{i: record(r) for i, r in runs.items()}}
    dump(
        LessonsFile(environment=environment(load), lessons=[merged[i] for i in sorted(merged)]),
        path,
    )
    return path


def notebook_run(lesson: L.Lesson) -> L.Ran:
    """A lesson with files beside it, on the newest recorded JAX: its committed notebook
    executed alone in an empty folder (it writes the files itself) gives the cells' outputs,
    instead of a cell-by-cell run beside a copy of the files. Its plain script runs in
    test_newcomer.py, from the page in an empty folder, against the same recorded lines. Each
    of these lessons builds C++: run four times here (script, cells, notebook, newcomer), it
    cost the suite about two CPU-minutes for two checks it makes twice."""
    with tempfile.TemporaryDirectory(prefix=f"jaxcb-nb-{lesson.id}-") as tmp:
        path = Path(tmp, f"{lesson.id}.ipynb")
        committed_text = (L.NOTEBOOKS / path.name).read_text(encoding="utf-8")
        path.write_text(
            L.execute_notebook(lesson, jax.__version__, committed_text), encoding="utf-8"
        )
        _, cells, error = L.stored_outputs(path)
    outputs = dict(cells)
    files_cell = outputs.pop(L.FILES_TAG, None)
    return L.Ran(
        lesson=lesson.id,
        sha256=lesson.sha256,
        cells=list(outputs.items()),
        error=error,
        script_returncode=None,
        script_stdout="",
        script_stderr="",
        seconds=0.0,
        files_cell=files_cell,
    )


@pytest.fixture(scope="session")
def runs(request: pytest.FixtureRequest) -> dict[str, L.Ran]:
    """Every selected lesson, run once (plain script and cell by cell), a few at a time.

    With ``--update-lessons`` one at a time: a lesson that times something records what a
    quiet machine measures, not what its neighbours leave of it."""
    selected = {
        item.callspec.params["lesson"]
        for item in request.session.items
        if getattr(item, "originalname", None)
        in {"test_lesson", "test_script_as_copied", "test_notebook_runs_in_an_empty_folder"}
    }
    update = request.config.getoption("--update-lessons")
    load = os.getloadavg()[0]
    workers = (
        1 if update else int(os.environ.get("JAXCB_LESSON_WORKERS", min(4, os.cpu_count() or 1)))
    )
    todo = [lesson for lesson in LESSONS if lesson.id in selected]
    scripts = any(
        getattr(item, "originalname", None) == "test_script_as_copied"
        and not item.get_closest_marker("skip")
        for item in request.session.items
    )
    as_notebook = [x for x in todo if x.files] if newest_here() and not update else []
    with concurrent.futures.ThreadPoolExecutor(max(1, workers)) as pool:
        pending = [pool.submit(L.run, x, script=scripts) for x in todo if x not in as_notebook]
        # nbclient in this thread, beside the pool: in a pool thread it leaves its event loop open
        done = {r.lesson: r for r in map(notebook_run, as_notebook)}
        done |= {r.lesson: r for r in (f.result() for f in pending)}
    if update:
        path = write(done, load)
        print(f"\njaxcb: {len(done)} lesson outputs written to {path} (load {load:.2f})")
    return done


@pytest.mark.parametrize("lesson", IDS)
def test_lesson(lesson: str, runs: dict[str, L.Ran]) -> None:
    """Each cell prints what the page shows for this JAX; a stop is the recorded stop."""
    ran = runs[lesson]
    rel = data_path().relative_to(L.ROOT)
    entry = committed().get(lesson)
    assert entry is not None, f"lesson {lesson}: {rel} has no output for it: run `{UPDATE}`"
    assert entry.source_sha256 == ran.sha256, (
        f"lesson {lesson}: docs/learn/lessons/{lesson}.py (or a file beside it) changed since "
        f"{rel} recorded its output: run `{UPDATE}`"
    )
    recorded = [(c.tag, c.output) for c in entry.cells]
    assert [t for t, _ in ran.cells] == [t for t, _ in recorded], (
        f"lesson {lesson}: cells run {[t for t, _ in ran.cells]}, recorded {[t for t, _ in recorded]}"
        + (f"; stopped in {ran.error['cell']}: {ran.error['line']}" if ran.error else "")
    )
    for (tag, now), (_, then) in zip(ran.cells, recorded, strict=True):
        diff = L.first_difference(then, now)
        assert diff is None, f"lesson {lesson}, cell {tag}: {diff} (`{UPDATE}` rewrites {rel})"
    stop_now = LessonStop(**ran.error) if ran.error else None
    assert stop_now == entry.stopped, (
        f"lesson {lesson}: stopped {stop_now}, recorded {entry.stopped}"
    )


# The plain script runs on the newest JAX with recorded lessons; on the others each lesson runs
# cell by cell only (the same code in the same order, in the same kind of fresh process): a
# second run of every lesson per old JAX would cost the suite about a CPU-minute each.
@pytest.mark.skipif(
    not newest_here(),
    reason=f"skipped: the lessons run as plain scripts on the newest recorded JAX; here "
    f"(JAX {jax.__version__}) cell by cell only (test_lesson)",
)
@pytest.mark.parametrize("lesson", IDS)
def test_script_as_copied(lesson: str, runs: dict[str, L.Ran]) -> None:
    """``python NN_slug.py`` prints what the cells print in turn (and fails where they stop)."""
    ran = runs[lesson]
    if ran.script_returncode is None:  # run as its notebook (notebook_run)
        pytest.skip(
            "run as its notebook here; its script runs from the page in an empty folder, "
            "against the recorded lines, in test_newcomer.py"
        )
    if ran.error is None:
        assert ran.script_returncode == 0, (
            f"lesson {lesson}: the script exited {ran.script_returncode}:\n{ran.script_stderr[-3000:]}"
        )
    else:
        assert ran.script_returncode != 0, f"lesson {lesson}: the cells stop, the script does not"
    diff = L.first_difference(ran.joined(), ran.script_stdout)
    assert diff is None, f"lesson {lesson}: the script and its cells print differently: {diff}"


@pytest.mark.parametrize("lesson", IDS)
def test_notebook_is_the_script(lesson: str, request: pytest.FixtureRequest) -> None:
    """The notebook is jupytext's conversion of the script, valid nbformat, with the outputs
    of its own run (test_notebook_outputs_are_the_recorded_ones checks them).

    ``--update-lessons`` on the newest recorded JAX executes it (nbclient, a fresh kernel, an
    empty folder: ``lessons.execute_notebook``) and writes it with its outputs; on an older
    JAX it writes a notebook only where the script's cells changed (without outputs then:
    the newest JAX's run gives them)."""
    import nbformat

    item = next(x for x in LESSONS if x.id == lesson)
    want = L.notebook_text(item)
    path = L.NOTEBOOKS / f"{lesson}.ipynb"
    if request.config.getoption("--update-lessons"):
        path.parent.mkdir(parents=True, exist_ok=True)
        if newest_here():
            path.write_text(L.execute_notebook(item, jax.__version__), encoding="utf-8")
        elif not path.exists() or L.without_outputs(path.read_text(encoding="utf-8")) != want:
            path.write_text(want, encoding="utf-8")
    assert path.exists(), f"lesson {lesson}: no notebook {path.relative_to(L.ROOT)}: run `{UPDATE}`"
    have = L.without_outputs(path.read_text(encoding="utf-8"))
    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    L.notebook_cells(path)  # no IPython magic: the notebook's code is the script's Python
    if have != want:
        a, b = have.split("\n"), want.split("\n")
        i = next(
            (k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
        )
        shown = (a[i] if i < len(a) else "<no line>", b[i] if i < len(b) else "<no line>")
        pytest.fail(
            f"lesson {lesson}: docs/learn/notebooks/{lesson}.ipynb differs from its script at "
            f"line {i + 1}: the notebook has {shown[0]!r}, the script makes {shown[1]!r}: "
            f"run `{UPDATE}`"
        )


def newest_recorded() -> str:
    """The newest JAX version with a lessons data file: the committed notebooks' outputs
    are from it."""
    return max((p.stem for p in DATA.glob("*.json")), key=_version)


def _files_cell_problem(item: L.Lesson, wrote: str | None) -> str | None:
    """What is wrong with what a notebook's files cell printed (``wrote``: None where it has
    no such cell), or None: it says it wrote each of the lesson's files, in order."""
    if wrote is None or wrote.split() != ["wrote:", *L.file_names(item)]:
        return f"its cell {L.FILES_TAG!r} printed {wrote!r}"
    return None


def _outputs_differ(
    lesson: str, entry: LessonRun, cells: list[tuple[str, str]], error: dict[str, str] | None
) -> str | None:
    """Where a notebook's outputs (``cells``, ``error``) part from the recorded run ``entry``;
    None where they agree (a lesson's own files cell, which writes its files, aside)."""
    outputs = dict(cells)
    item = next(x for x in LESSONS if x.id == lesson)
    if item.files:
        wrong = _files_cell_problem(item, outputs.pop(L.FILES_TAG, None))
        if wrong is not None:
            return wrong
    recorded = [(c.tag, c.output) for c in entry.cells]
    if list(outputs) != [t for t, _ in recorded]:
        return f"cells ran {list(outputs)}, recorded {[t for t, _ in recorded]}" + (
            f"; stopped in {error['cell']}: {error['line']}" if error else ""
        )
    for tag, then in recorded:
        diff = L.first_difference(then, outputs[tag])
        if diff is not None:
            return f"cell {tag}: {diff}"
    stop = LessonStop(**error) if error else None
    if stop != entry.stopped:
        return f"stopped {stop}, recorded {entry.stopped}"
    return None


@pytest.mark.parametrize("lesson", IDS)
def test_notebook_outputs_are_the_recorded_ones(lesson: str) -> None:
    """The committed notebook carries the outputs of its run on the newest recorded JAX, and
    they are what the lesson printed there (docs/data/lessons/<newest>.json), for this very
    script: a notebook a reader opens shows what the page shows."""
    path = L.NOTEBOOKS / f"{lesson}.ipynb"
    version, cells, error = L.stored_outputs(path)
    newest = newest_recorded()
    assert version == newest, (
        f"notebook {lesson}: outputs from JAX {version}, the newest recorded is {newest}: run "
        f"`{UPDATE}` on JAX {newest}"
    )
    entry = {r.id: r for r in load_lessons(DATA / f"{newest}.json").lessons}.get(lesson)
    assert entry is not None, f"lesson {lesson}: no recorded output on JAX {newest}"
    item = next(x for x in LESSONS if x.id == lesson)
    assert entry.source_sha256 == item.sha256, f"lesson {lesson}: stale output: run `{UPDATE}`"
    differs = _outputs_differ(lesson, entry, cells, error)
    assert differs is None, f"notebook {lesson}: {differs}: run `{UPDATE}` on JAX {newest}"


# The notebooks of the lessons with files beside them: those run here as notebooks. Every other
# notebook's code is its script's cells (test_notebook_is_the_script), which test_lesson runs
# in an empty folder already, and its stored outputs are checked against the recorded ones.
CARRY_FILES = [lesson.id for lesson in LESSONS if lesson.files]


@pytest.mark.skipif(
    not newest_here(),
    reason=f"skipped: the notebooks run on the newest recorded JAX, as Colab would; here "
    f"(JAX {jax.__version__}) the lesson runs cell by cell only (test_lesson)",
)
@pytest.mark.parametrize("lesson", CARRY_FILES)
def test_notebook_runs_in_an_empty_folder(lesson: str, runs: dict[str, L.Ran]) -> None:
    """The committed notebook, executed as a notebook (nbclient, a fresh ipykernel) alone in
    an empty folder (as Colab and a download see it), writes the files the lesson needs in its
    first code cells and then prints, cell by cell, what the lesson's page shows for this JAX
    (the recorded outputs, which test_lesson compares: this run is the lesson's run here)."""
    item = next(x for x in LESSONS if x.id == lesson)
    ran = runs[lesson]
    wrong = _files_cell_problem(item, ran.files_cell)
    assert wrong is None, (
        f"notebook {lesson}: {wrong}; the cell writes the lesson's files "
        f"({', '.join(L.file_names(item))}): run `{UPDATE}`"
        + (f"; it stopped in {ran.error['cell']}: {ran.error['line']}" if ran.error else "")
    )


@pytest.mark.parametrize("lesson", IDS)
def test_imports_only_jax_numpy_scipy(lesson: str) -> None:
    item = next(x for x in LESSONS if x.id == lesson)
    extra = L.foreign_imports(item)
    assert extra == [], f"lesson {lesson} imports {extra}: a lesson uses JAX, NumPy, SciPy only"


def test_no_stray_notebooks_or_data() -> None:
    notebooks = sorted(p.stem for p in L.NOTEBOOKS.glob("*.ipynb"))
    assert [n for n in notebooks if n not in IDS] == []
    for path in sorted(DATA.glob("*.json")):
        stray = [r.id for r in load_lessons(path).lessons if r.id not in IDS]
        assert stray == [], f"{path.name} records lessons that no longer exist: {stray}"


def test_first_difference_names_the_line() -> None:
    assert L.first_difference("calls: 3\n", "calls:  3") is None
    assert L.first_difference("t: 12.5 µs\nx: [1. 2.]", "t: 80.1 µs\nx: [1.  2.0000001]") is None
    assert (
        L.first_difference("t: 12.5 µs", "t: 12.5 ms")
        == "line 1: expected 't: 12.5 µs', got 't: 12.5 ms'"
    )
    assert (
        L.first_difference("a\ncalls: 3", "a\ncalls: 4")
        == "line 2: expected 'calls: 3', got 'calls: 4'"
    )
    assert L.first_difference("float32", "float64") is not None
    assert L.first_difference("a\n", "a\nb\n") == "line 2: expected '<no line>', got 'b'"
