"""The benchmark analysis (jaxcb_core.bench) on small made-up numbers."""

from __future__ import annotations

import pytest

from jaxcb_core import bench


def test_crossover() -> None:
    sizes = [1, 100, 10_000]
    ref = [1.0, 1.0, 100.0]
    assert bench.crossover(sizes, [1.5, 1.5, 150.0], ref) == ("below", None)
    what, r = bench.crossover(sizes, [10.0, 10.0, 1000.0], ref)
    assert what == "above"
    assert r == pytest.approx(10.0)
    # ratio 4 at n=100, 1 at n=10^4: the factor 2 is crossed half way, log-log
    what, n = bench.crossover(sizes, [4.0, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # the fixed cost (1.0) is half of the time where t reaches 2.0: log-log half way
    what, n = bench.fixed_cost_crossover(sizes, [1.0, 1.0, 4.0])
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # "from which size on": a noisy dip below the factor at a small size does not count
    what, n = bench.crossover(sizes, [1.5, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)


def test_target_verdict() -> None:
    t = bench.Target(name="x", subject="s", value=1.05, limit=1.10, where="w")
    assert t.met
    assert not t.model_copy(update={"value": 1.2}).met
