"""The behaviour scenarios' registry and helpers.

A scenario is a function returning its measured outcome, a flat ``{fact: value}`` dict
with no timings; ``@scenario(group, id, title)`` registers it. The session measures every
scenario once and compares with ``docs/data/behaviour/<jax>-<platform>-<layout>.json``
(``--update-behaviour`` rewrites it); the site renders the file. Mechanisms are found
through the registries' ``bare`` forms, never by name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import re
import runpy
import subprocess
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jaxcb_core.mechanisms import Variant, discover

Outcome = dict[str, Any]
TEST_FILE = "tests/behaviour/test_behaviour.py"
DOCS = Path(__file__).resolve().parents[2] / "docs"  # where the reader's scripts live


@dataclasses.dataclass(frozen=True)
class Scenario:
    group: str  # exception | dispatch | gotcha | fix | edge | recipe | road | compare
    id: str
    title: str
    run: Callable[[], Outcome]

    @property
    def isolated(self) -> bool:
        return bool(getattr(self.run, "__jaxcb_isolated__", False))

    @property
    def key(self) -> str:
        return f"{self.group}:{self.id}"

    @property
    def test(self) -> str:
        return f"{TEST_FILE}::test_observation[{self.key}]"


SCENARIOS: dict[str, Scenario] = {}
SCRIPTS: set[Path] = set()  # the reader's scripts registered with :func:`script`


def scenario(
    group: str, id: str, title: str
) -> Callable[[Callable[[], Outcome]], Callable[[], Outcome]]:
    def register(fn: Callable[[], Outcome]) -> Callable[[], Outcome]:
        s = Scenario(group, id, title, fn)
        if s.key in SCENARIOS:
            raise ValueError(f"two scenarios {s.key}")
        SCENARIOS[s.key] = s
        return fn

    return register


@functools.cache
def bare(form: str) -> tuple[tuple[str, Callable[..., Any]], ...]:
    """``(mechanism, bare form)`` for every mechanism whose registry has ``form``."""
    seen: dict[str, Callable[..., Any]] = {}
    for v in discover():
        if form in v.bare:
            seen.setdefault(v.mechanism, v.bare[form])
    return tuple(seen.items())


def variants() -> list[Variant]:
    return discover()


def python(code: str, *, timeout: float = 60, paths: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter (4 CPU devices, ``paths`` first on ``sys.path``):
    ``returncode`` (``None`` when it was killed at ``timeout``), ``stdout``, ``stderr``.

    The interpreter is forked from one that has imported JAX and nothing else, as the
    reader's scripts are (``tests/forkserver.py``): no backend has started, so a flag the
    code sets still takes effect, and it exits as a fresh ``python -c`` does."""
    from reader import run_python

    prelude = (
        "import os, sys\n"
        "os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
        f"sys.path[:0] = {list(paths)!r}\n"
        "from jaxcb_core import environment\n"
        "environment.use_cpu_devices(4)\n"
    )
    try:
        proc = run_python(["-c", prelude + textwrap.dedent(code)], Path.cwd(), timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return {"returncode": None, "stdout": out, "stderr": ""}
    return {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}


FACT = re.compile(r"^([a-z][a-z0-9 ]*[a-z0-9]): (.+)$")


def facts(stdout: str) -> Outcome:
    """What a reader's script printed, as facts: each ``name: value`` line is the fact
    ``name`` (spaces as underscores; a whole number, True, False and None typed), and any
    other line is ``printed`` (``printed_1``, ``printed_2``, ... when there are several)."""
    out: Outcome = {}
    other = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        m = FACT.match(line)
        if m is None:
            other.append(line.rstrip())
            continue
        text = m.group(2).strip()
        value: Any = {"True": True, "False": False, "None": None}.get(text, text)
        if re.fullmatch(r"-?\d+", text):
            value = int(text)
        out[m.group(1).replace(" ", "_")] = value
    if len(other) == 1:
        out["printed"] = other[0]
    else:
        out.update({f"printed_{i}": line for i, line in enumerate(other, 1)})
    return out


def run_script(path: Path, *, raw: bool = False) -> Outcome:
    """Run a reader's script in this interpreter (``runpy``, the session's 4 CPU devices up,
    warnings shown as in a reader's session, not raised) and return what it printed, as
    :func:`facts` or, with ``raw``, as one fact ``output`` (its whole stdout); plus
    ``error`` (``"Type: first line"``) when it raised."""
    import jax

    buf = io.StringIO()
    error = None
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("default")  # a reader's session: warnings shown, not raised
        try:
            runpy.run_path(str(path), run_name="__main__")
            jax.effects_barrier()
        except Exception as e:  # what the script does on this JAX is the result
            text = (str(e).strip().splitlines() or [""])[0][:120]
            error = f"{type(e).__name__}: {text}".rstrip(": ")
    out = {"output": buf.getvalue()} if raw else facts(buf.getvalue())
    if error is not None:
        out["error"] = error
    return out


def script(
    group: str, id: str, title: str, path: Path, *, fresh: bool = False, raw: bool = False
) -> None:
    """Register a reader's script as a scenario: its outcome is what it prints
    (:func:`run_script`, ``raw`` as it is); ``fresh`` runs it in a new interpreter of its own."""

    def run() -> Outcome:
        return run_script(path, raw=raw)

    SCRIPTS.add(path.resolve())

    scenario(group, id, title)(isolated(run) if fresh else run)


def isolated(fn: Callable[[], Outcome]) -> Callable[[], Outcome]:
    """Mark a scenario to run in a fresh interpreter of its own (one that may leave the
    runtime in a state the next scenario would inherit, a failed callback on old JAX)."""
    fn.__jaxcb_isolated__ = True  # type: ignore[attr-defined]
    return fn


def error_name(e: BaseException) -> str:
    return type(e).__name__


def chain(e: BaseException) -> list[BaseException]:
    """``e``, its ``__cause__``/``__context__``, theirs, ... (each once)."""
    out: list[BaseException] = []
    cur: BaseException | None = e
    while cur is not None and cur not in out:
        out.append(cur)
        cur = cur.__cause__ or cur.__context__
    return out


def failed(e: BaseException) -> Outcome:
    """The outcome of a scenario that raised instead of returning one."""
    text = (str(e).strip().splitlines() or [""])[0][:160]
    return {"scenario_failed": f"{type(e).__name__}: {text}"}


# Every module that registers scenarios (importing one registers its scenarios).
MODULES = (
    "compare",
    "dispatch",
    "edges",
    "exceptions",
    "gotchas",
    "packaged",
    "recipes",
    "roads",
)


def load_all() -> None:
    """Register every scenario: import each of :data:`MODULES`."""
    import importlib

    for name in MODULES:
        importlib.import_module(name)


def plain(outcome: Outcome) -> Outcome:
    """The outcome as it is recorded: anything but a string, number, bool or None as its str."""
    return {
        k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
        for k, v in outcome.items()
    }


def outcome_of(key: str) -> Outcome:
    """Run scenario ``key`` here; its outcome (:func:`plain`), or :func:`failed`."""
    load_all()
    try:
        return plain(SCENARIOS[key].run())
    except Exception as e:  # a scenario that fails to run is a result too, and says so
        return failed(e)


_MARK = "JAXCB-OUTCOME "


def _isolated(key: str) -> Outcome:
    from reader import run_python

    here = str(Path(__file__).resolve().parent)
    code = (
        "import json, sys\n"
        f"sys.path[:0] = {[here, str(Path(here).parent)]!r}\n"
        "from jaxcb_core import environment\n"
        "environment.use_cpu_devices(4)\n"
        "import harness\n"
        f"outcome = harness.outcome_of({key!r})\n"
        f"sys.stdout.write('\\n{_MARK}' + json.dumps(outcome) + '\\n')\n"
    )
    proc = run_python(["-c", code], Path(here), 300)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK) :])  # type: ignore[no-any-return]
    last = (proc.stderr.strip().splitlines() or [""])[-1][:160]
    return {"scenario_failed": f"the process died ({proc.returncode}): {last}".rstrip(": ")}


def run_isolated(keys: list[str], workers: int = 2) -> dict[str, Outcome]:
    """Each scenario of ``keys`` in a fresh interpreter of its own (forked from one that
    has imported JAX and nothing else, as the reader's scripts are; ``workers`` at once)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max(1, workers)) as pool:
        return dict(zip(keys, pool.map(_isolated, keys), strict=True))
