"""The catalog's effect computations in every package that delivers them to a sink, ordered or
not: one test body over the packages.

The packages are found in the registries: each whose first row implements every effect
computation and takes ``ordered`` (``jaxcb_io``, ``jaxcb_debug``). Each delivers every
record once, in order when ordered (the default), and when the result is unused; its host
is reached only on the steps that report; its default sink logs to the package's logger.
What differs between them (vmap, derivatives, the print and log forms) stays in
``test_io.py`` and ``test_debug.py``.

Host calls are counted through the probe of the package's ``<mechanism>/ordered`` row
(``pkg_support.host_calls``). Behaviour asserted here was measured on JAX 0.10.2 and
0.12.0.1, where it is the same.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import jax
import numpy as np
import pytest
from pkg_support import (
    assert_close,
    assert_records,
    by_step,
    call,
    first_rows,
    host_calls,
    records,
    sink_of,
)

from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import Variant

EFFECTS = [c.name for c in CATALOG if c.kind == "effect"]


def _packages() -> dict[str, Variant]:
    """``{package: its first row}`` for each package whose first row implements every effect
    computation with an ``ordered`` keyword."""
    return {
        package: v
        for package, v in first_rows().items()
        if all(name in v.implementations and v.takes(name, "ordered") for name in EFFECTS)
    }


PACKAGES = _packages()


@pytest.fixture(params=sorted(PACKAGES))
def package(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def public(package: str, name: str) -> Any:
    return getattr(importlib.import_module(package), name)


def test_the_sink_packages_are_found() -> None:
    assert {"jaxcb_io", "jaxcb_debug"} <= set(PACKAGES)  # the ones known; others join


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", EFFECTS)
def test_effect_records_in_order(package: str, name: str, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    out = call(public(package, name), c, args, jit=jit, **sink)  # default: ordered=True
    jax.effects_barrier()
    assert_records(got, records(c, *args), c.tolerance(dtype))
    assert_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_records_unordered_exactly_once(
    package: str, name: str, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    call(public(package, name), c, args, ordered=False, **sink)
    jax.effects_barrier()
    assert_records(by_step(got), records(c, *args), c.tolerance(dtype))


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "unordered"])
@pytest.mark.parametrize("name", EFFECTS)
def test_effect_delivered_when_result_unused(package: str, name: str, ordered: bool) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    fn = public(package, name)

    def unused(x0: Any) -> Any:
        fn(x0, *args[1:], ordered=ordered, **sink)
        return x0

    jax.jit(unused)(args[0])
    jax.effects_barrier()
    assert_records(by_step(got), records(c, *args), c.tolerance(np.float32))


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_host_reached_only_on_reported_steps(package: str, name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    with host_calls(f"{PACKAGES[package].mechanism}/ordered", name) as tally:
        call(public(package, name), c, args, **sink)
    # log_steps: every step; progress: gated by lax.cond, n // every host calls, not n
    assert tally.calls == len(records(c, *args)) == len(got)
    if name == "progress":
        assert tally.calls == args[1] // args[2]
        assert tally.calls < args[1]


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_default_sink_logs(
    package: str, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    with caplog.at_level(logging.INFO, logger=package):
        call(public(package, name), c, args)
        jax.effects_barrier()
    lines = [r.getMessage() for r in caplog.records if r.name == package]
    assert [line.split(":")[0] for line in lines] == [f"step {k}" for k, _ in records(c, *args)]
