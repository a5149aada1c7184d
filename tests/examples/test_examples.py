"""Every example under ``docs/examples/``, run in a fresh Python process, against its recorded output.

An example is a complete script a reader can paste into a fresh Python session:
``docs/examples/<package>/<computation>.py`` uses one pattern of a mechanism package (the
computation pages show it under that package's tab), ``docs/examples/<package>/<name>.py``
with any other name calls the mechanism's API directly (the mechanism pages show it).

Each runs as ``python -P FILE`` in an empty directory, on the CPU, with one device and no
``XLA_FLAGS`` of the test session: what a reader's own session does. Its stdout must match
``docs/data/examples/<jax version>.json`` (numbers to a relative 1e-5, so that the last digit
a CPU's vector unit rounds differently does not fail it; everything else exactly, up to
whitespace), and that file records the hash of the source it ran, so the site refuses to show
an output next to code it did not come from. ``pytest tests/examples --update-examples``
rewrites the file from what ran.

An example runs where its package registers variants that implement the computation (or, for a
mechanism example, anything): jaxcb_legacy's only in ``tox -e legacy`` (JAX 0.4.30),
jaxcb_buffer's and jaxcb_ffi's only where that JAX has the API. The others are skipped, with
the reason.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import os
import tempfile
from pathlib import Path

import jax
import pytest

from jaxcb_core.catalog import CATALOG
from jaxcb_core.mechanisms import discover
from jaxcb_core.schema import (
    ExampleEnvironment,
    ExampleRun,
    ExamplesFile,
    dump,
    load_examples,
)
from reader import run_python, same_output, versions

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
DATA = ROOT / "docs" / "data" / "examples"
COMPUTATIONS = {c.name for c in CATALOG}
TIMEOUT_S = 300


def example_ids() -> list[str]:
    return sorted(
        p.relative_to(EXAMPLES).with_suffix("").as_posix() for p in EXAMPLES.glob("*/*.py")
    )


def data_path() -> Path:
    return DATA / f"{jax.__version__}.json"


def skip_reason(example: str) -> str | None:
    """Why ``example`` does not run with the installed JAX and packages (None: it runs)."""
    package, name = example.split("/")
    variants = [v for v in discover() if v.package == package]
    if not variants:
        return f"{package} is not installed here (JAX {jax.__version__})"
    if name in COMPUTATIONS:
        if any(name in v.implementations for v in variants):
            return None
        why = next((v.unsupported[name] for v in variants if name in v.unsupported), "")
        return f"{package} has no {name} on JAX {jax.__version__}: {why}".rstrip(": ")
    if any(v.implementations for v in variants):
        return None
    why = next((r for v in variants for r in v.unsupported.values()), "")
    return f"{package} implements nothing on JAX {jax.__version__}: {why}".rstrip(": ")


def _params() -> list[object]:
    out = []
    for example in example_ids():
        reason = skip_reason(example)
        marks = [pytest.mark.skip(reason=f"skipped: {reason}")] if reason else []
        out.append(pytest.param(example, marks=marks, id=example))
    return out


@dataclasses.dataclass(frozen=True)
class Ran:
    example: str
    sha256: str
    returncode: int
    stdout: str
    stderr: str


def sha256(example: str) -> str:
    return hashlib.sha256((EXAMPLES / f"{example}.py").read_bytes()).hexdigest()


def run_example(example: str) -> Ran:
    path = EXAMPLES / f"{example}.py"
    with tempfile.TemporaryDirectory(prefix="jaxcb-example-") as cwd:
        proc = run_python([str(path)], Path(cwd), TIMEOUT_S)  # -P: nothing beside the script
    return Ran(example, sha256(example), proc.returncode, proc.stdout, proc.stderr)


def environment() -> ExampleEnvironment:
    return ExampleEnvironment(**versions())


def write(runs: dict[str, Ran]) -> Path:
    """Merge this session's runs into the data file of this JAX (examples not run now keep
    their entry while their file exists)."""
    path = data_path()
    old = {e.id: e for e in load_examples(path).examples} if path.exists() else {}
    new = {
        r.example: ExampleRun(id=r.example, source_sha256=r.sha256, output=r.stdout)
        for r in runs.values()
    }
    keep = {i: e for i, e in old.items() if (EXAMPLES / f"{i}.py").exists()}
    merged = {**keep, **new}
    record = ExamplesFile(environment=environment(), examples=[merged[i] for i in sorted(merged)])
    dump(record, path)
    return path


@pytest.fixture(scope="session")
def runs(request: pytest.FixtureRequest) -> dict[str, Ran]:
    """Every selected example that runs here, once, a few at a time."""
    selected = [
        item.callspec.params["example"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_example"
        and not item.get_closest_marker("skip")
    ]
    workers = int(os.environ.get("JAXCB_EXAMPLE_WORKERS", min(4, os.cpu_count() or 1)))
    with concurrent.futures.ThreadPoolExecutor(max(1, workers)) as pool:
        done = {r.example: r for r in pool.map(run_example, selected)}
    if request.config.getoption("--update-examples"):
        ok = {k: r for k, r in done.items() if r.returncode == 0}
        path = write(ok)
        print(f"\njaxcb: {len(ok)} example outputs written to {path}")
    return done


@pytest.mark.parametrize("example", _params())
def test_example(example: str, runs: dict[str, Ran]) -> None:
    ran = runs[example]
    assert ran.returncode == 0, (
        f"docs/examples/{example}.py exited with {ran.returncode}:\n{ran.stderr[-3000:]}"
    )
    path = data_path()
    rel = path.relative_to(ROOT)
    update = "pytest tests/examples --update-examples"
    committed = {e.id: e for e in load_examples(path).examples} if path.exists() else {}
    entry = committed.get(example)
    assert entry is not None, f"{rel} has no output for {example}: run `{update}`"
    assert entry.source_sha256 == ran.sha256, (
        f"docs/examples/{example}.py changed since {rel} recorded its output: run `{update}`"
    )
    assert same_output(entry.output, ran.stdout), (
        f"docs/examples/{example}.py printed something else than {rel} records "
        f"(`{update}` rewrites it):\n--- recorded\n{entry.output}\n--- now\n{ran.stdout}"
    )


def test_every_pattern_module_has_an_example() -> None:
    """A computation module of a mechanism package is shown with an example on its page."""
    missing = []
    for registry in sorted(ROOT.glob("packages/*/src/*/_registry.py")):
        package = registry.parent
        for name in sorted(COMPUTATIONS):
            if (package / f"{name}.py").is_file() and not (
                EXAMPLES / package.name / f"{name}.py"
            ).is_file():
                missing.append(f"docs/examples/{package.name}/{name}.py")
    assert missing == []


def test_examples_belong_to_a_package() -> None:
    packages = {p.parent.name for p in ROOT.glob("packages/*/src/*/_registry.py")}
    strays = [e for e in example_ids() if e.split("/")[0] not in packages]
    assert strays == []


def test_same_output_tolerates_the_last_digit_only() -> None:
    assert same_output("[1.        1.9588511]", "[1.        1.9588512]")
    assert same_output("x: [1. 2.]\n", "x:  [1.  2.]")
    assert not same_output("[1.  1.9588511]", "[1.  1.9598511]")
    assert not same_output("step 1: 1.0", "step 2: 1.0")
    assert not same_output("jit: [1.]", "vmap: [1.]")
