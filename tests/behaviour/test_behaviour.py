"""Behaviour outside the matrix grid, measured on the installed JAX and snapshot-tested.

Each test is one scenario (``exceptions.py``, ``dispatch.py``, ``gotchas.py``, ``edges.py``,
``packaged.py``, ``recipes.py``, ``roads.py``, ``compare.py``): its outcome
must equal the committed one in ``docs/data/behaviour/``. When JAX changes behaviour the
test fails and shows both; ``--update-behaviour`` rewrites the file from what ran.
"""

from __future__ import annotations

import functools
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import gotchas
import pytest
from harness import (
    DOCS,
    SCENARIOS,
    SCRIPTS,
    Scenario,
    load_all,
    outcome_of,
    plain,
    run_isolated,
)

from jaxcb_core import environment, matrix
from jaxcb_core.schema import (
    BehaviourFile,
    MatrixEnvironment,
    Observation,
    dump,
    load_behaviour,
    matrix_stem,
)
from reader import READER_IMPORTS, imports, same_output

load_all()
KEYS = sorted(SCENARIOS)


def data_path() -> Path:
    env = MatrixEnvironment.model_validate(environment.describe())
    return matrix.data_dir().parent / "behaviour" / f"{matrix_stem(env)}.json"


@functools.cache
def committed() -> dict[str, Observation]:
    path = data_path()
    if not path.exists():
        return {}
    return {f"{o.group}:{o.id}": o for o in load_behaviour(path).observations}


def _run(s: Scenario, result: dict[str, Any] | None = None) -> Observation:
    """The observation of ``s``: ``result`` where it ran elsewhere, else run here."""
    outcome = outcome_of(s.key) if result is None else plain(result)
    return Observation(group=s.group, id=s.id, title=s.title, outcome=outcome, test=s.test)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def measured(request: pytest.FixtureRequest) -> dict[str, Observation]:
    selected = [
        item.callspec.params["key"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_observation"
    ]
    selected += [  # a fix's right outcome is read from its observation
        f"fix:{item.callspec.params['g'].id}"
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_fix_gives_the_right_outcome"
    ]
    selected = list(dict.fromkeys(selected))
    # the isolated scenarios (a failing callback) each in a fresh interpreter; the others
    # here, one after another; the dispatch ones start interpreters of their own, two at once
    isolated = [k for k in selected if SCENARIOS[k].isolated]
    spawned = [k for k in selected if SCENARIOS[k].group == "dispatch"]
    inproc = [k for k in selected if k not in isolated and k not in spawned]
    out = {k: _run(SCENARIOS[k]) for k in inproc}
    with ThreadPoolExecutor(2) as pool:
        out.update(zip(spawned, pool.map(lambda k: _run(SCENARIOS[k]), spawned), strict=True))
    for k, result in run_isolated(isolated).items():
        out[k] = _run(SCENARIOS[k], result)
    if request.config.getoption("--update-behaviour"):
        path = data_path()
        kept = dict(committed())
        kept.update(out)
        env = MatrixEnvironment.model_validate(environment.describe())
        order = {k: i for i, k in enumerate(KEYS)}
        ordered = sorted(kept.values(), key=lambda o: order.get(f"{o.group}:{o.id}", 1 << 30))
        dump(BehaviourFile(environment=env, observations=ordered), path)
        print(f"\njaxcb: measured {len(out)} observations, {path} now has {len(ordered)}")
        committed.cache_clear()
    return out


@pytest.mark.parametrize("key", KEYS)
def test_observation(key: str, measured: dict[str, Observation]) -> None:
    now = measured[key]
    old = committed().get(key)
    if old is None:
        pytest.fail(
            f"{data_path()} has no observation {key}: run `pytest tests/behaviour --update-behaviour`"
        )
    if "output" in old.outcome:  # a recipe: what it printed, line by line
        problem = _first_difference(old.outcome, now.outcome)
        if problem:
            pytest.fail(f"{key}: {problem}")
        assert old.title == now.title
        return
    assert (old.title, old.outcome) == (now.title, now.outcome), (
        f"{key} no longer matches the committed behaviour:\n"
        f"  committed {json.dumps(old.outcome)}\n  measured  {json.dumps(now.outcome)}"
    )


def _first_difference(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Where a script's printed output first differs from the recorded one (None: it does not)."""
    if old.get("error") != new.get("error"):
        return f"it raised {new.get('error')!r}, recorded: {old.get('error')!r}"
    a = str(old.get("output", "")).splitlines()
    b = str(new.get("output", "")).splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if not same_output(
            x, y, rtol=1e-3, atol=1e-9
        ):  # a few digits; another CPU may round the last one the other way
            return f"line {i} differs from the recorded output:\n  recorded {x!r}\n  now      {y!r}"
    if len(a) != len(b):
        return f"line {min(len(a), len(b)) + 1}: recorded {len(a)} lines, it printed {len(b)}"
    return None


def test_no_stale_observations() -> None:
    stale = sorted(set(committed()) - set(KEYS))
    assert not stale, f"observations in {data_path()} that no longer exist: {stale}"


def test_at_least_twenty_gotchas() -> None:
    assert sum(s.group == "gotcha" for s in SCENARIOS.values()) >= 20


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p.isdigit())


@pytest.mark.parametrize("g", gotchas.GOTCHAS, ids=lambda g: g.id)
def test_fix_gives_the_right_outcome(g: gotchas.Gotcha, measured: dict[str, Observation]) -> None:
    """What the page tells a reader to write instead does the job on this JAX."""
    import jax

    if _version(jax.__version__) < _version(g.since):
        pytest.skip(f"the fix is written for JAX >= {g.since}; here {jax.__version__}")
    got = measured[f"fix:{g.id}"].outcome
    wrong = {k: got.get(k, "(not printed)") for k, v in g.right.items() if got.get(k) != v}
    assert not wrong, (
        f"docs/gotchas/{g.id}.fix.py does not give the right outcome on JAX {jax.__version__}: "
        f"expected {g.right}, it printed {got}"
    )


READER_SCRIPTS = sorted(
    p for d in ("gotchas", "edges", "errors", "recipes", "roads") for p in (DOCS / d).glob("*.py")
)


@pytest.mark.parametrize("path", READER_SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reader_scripts_are_standalone(path: Path) -> None:
    """A script the site shows a reader: imports JAX, NumPy, SciPy and the standard
    library only, and the behaviour session runs it."""
    foreign = sorted(imports(path) - READER_IMPORTS)
    assert foreign == [], f"{path.name} imports {foreign}"
    assert path.resolve() in SCRIPTS, f"{path}: no scenario runs it"
