"""jaxcb_pure, what only it does: expm's jacrev on the host, the measured failures of the two
counter-examples, its registry.

The pure computations' results, derivative rules and batching are tested with the other
packages that call the host with a rule of their own, one body over all of them, in
test_pure_computations.py; validation errors for every package at once in
test_validation.py. Host calls are counted through the registry's probe
(``pkg_support.host_calls``); every traced function is a fresh lambda, so no cached trace
hides the probe. Exception messages and counter-example behaviour were measured on JAX
0.10.2 and 0.12.0.1 (CPU), where they are identical.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import BATCH, PURE, assert_close, host_calls, module, raises

from jaxcb_core import references
from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_pure import expm, host_draw, log_steps

METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
VARIANT = "pure_callback/default"  # every row shares the modules, and so the probe

NO_JVP = "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


# --- derivatives ---------------------------------------------------------------------------


def test_expm_jacrev_one_host_call(dtype: np.dtype[Any]) -> None:
    """jacrev = the backward rule vmapped over 16 cotangents: one host call.

    The forward host call is removed under jit: jacrev never uses the primal output
    (measured: zero calls), the pure-callback contract at work.
    """
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    with host_calls(VARIANT, "expm") as tally:
        out = jax.jit(jax.jacrev(fresh(expm)))(a)
    assert out.shape == (4, 4, 4, 4)
    assert_close(out, references.jacobian(c, (a,)), c.tolerance(dtype), dtype)
    assert tally.by_function == {"on_host_vjp": 1}  # no forward call
    assert f"{dtype.name}[16,4,4]" in tally.shapes  # the cotangents, batched on the host


# --- counter-example: log_steps ------------------------------------------------------------


def test_log_steps_result_right_but_log_never_called(dtype: np.dtype[Any]) -> None:
    c = by_name("log_steps")
    x0, n = c.make_args(dtype)
    assert c.records is not None
    assert len(c.records(x0, n)) == n  # what a correct log would receive: n records
    records: list[tuple[Any, Any]] = []

    def log(k: Any, x: Any) -> None:
        records.append((k, x))

    def run(x: Any) -> jax.Array:
        return log_steps(x, n, log=log)

    ref, tol = c.reference(x0, n), c.tolerance(dtype)
    batched = c.batched_args(dtype, BATCH)[0]
    with host_calls(VARIANT, "log_steps") as tally:
        assert_close(run(x0), ref, tol, dtype)  # no jit: the scan is compiled anyway
        assert_close(jax.jit(run)(x0), ref, tol, dtype)
        out = jax.vmap(run)(batched)
    assert_close(out, np.stack([c.reference(b, n) for b in batched]), tol, dtype)
    assert records == []  # the pure callback was removed from the scan body every time
    assert tally.calls == 0


def test_log_steps_default_log_never_logs(x32: None, caplog: pytest.LogCaptureFixture) -> None:
    name = "jaxcb_pure.log_steps"
    with caplog.at_level(logging.INFO, logger=name):
        out = jax.jit(lambda x: log_steps(x, 3))(np.zeros(2, np.float32))
        np.testing.assert_allclose(out, [1.75, 1.75])
        assert [r for r in caplog.records if r.name == name] == []
        module("jaxcb_pure", "log_steps")._log_to_logging(np.int32(1), np.ones(2))  # would log
        assert [r.getMessage() for r in caplog.records if r.name == name] == ["step 1: [1. 1.]"]


def test_log_steps_zero_steps(x32: None) -> None:
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    out = log_steps(x0, 0, log=lambda k, x: None)
    np.testing.assert_array_equal(out, x0)


def test_log_steps_is_not_differentiable(x32: None) -> None:
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    with raises(ValueError, NO_JVP):
        jax.grad(lambda x: log_steps(x, 2, log=lambda k, x: None).sum())(x0)
    with raises(ValueError, NO_JVP):
        jax.jvp(lambda x: log_steps(x, 2, log=lambda k, x: None), (x0,), (x0,))


# --- counter-example: host_draw ------------------------------------------------------------


def draws(seed: int, k: int, shape: tuple[int, ...] = (8,)) -> list[np.ndarray]:
    """The first `k` draws of a twin generator, through the catalog's reference."""
    twin, ref = np.random.default_rng(seed), by_name("host_draw").reference
    return [ref(shape, twin) for _ in range(k)]


def test_host_draw_eager_calls_advance(dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    a, b = host_draw((8,), rng=rng), host_draw((8,), rng=rng)
    assert a.dtype == np.float32  # float32 under x64 too
    assert b.dtype == np.float32
    first, second = draws(7, 2)
    np.testing.assert_array_equal(a, first)
    np.testing.assert_array_equal(b, second)


def test_host_draw_default_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module("jaxcb_pure", "host_draw"), "_RNG", np.random.default_rng(11))
    np.testing.assert_array_equal(host_draw((2, 3)), draws(11, 1, (2, 3))[0])


def test_host_draw_jit_unused_draw_never_happens() -> None:
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        out = jax.jit(lambda x: (host_draw((8,), rng=rng), x)[1])(1.0)  # the draw is unused
    assert float(out) == 1.0
    assert tally.calls == 0
    np.testing.assert_array_equal(host_draw((8,), rng=rng), draws(7, 1)[0])  # not advanced


def test_host_draw_two_draws_in_one_jit_not_merged() -> None:
    """JAX may merge identical pure calls; measured: it does not merge these two."""
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        a, b = jax.jit(lambda: (host_draw((8,), rng=rng), host_draw((8,), rng=rng)))()
    assert tally.calls == 2
    first, second = draws(7, 2)
    assert {a.tobytes(), b.tobytes()} == {first.tobytes(), second.tobytes()}


def test_host_draw_jit_calls_again_each_run() -> None:
    rng = np.random.default_rng(7)
    f = jax.jit(lambda: host_draw((8,), rng=rng))
    a, b = f(), f()
    first, second = draws(7, 2)
    np.testing.assert_array_equal(a, first)
    np.testing.assert_array_equal(b, second)


@pytest.mark.parametrize("method", [*METHODS, None])
def test_host_draw_vmap_repeats_one_draw(method: str | None) -> None:
    """No operand is batched, so vmap never batches the call, whatever vmap_method says."""
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        out = jax.vmap(lambda _: host_draw((8,), rng=rng, vmap_method=method))(jnp.arange(4.0))
    assert out.shape == (4, 8)
    assert tally.calls == 1
    np.testing.assert_array_equal(out, np.broadcast_to(draws(7, 1)[0], (4, 8)))


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    from jaxcb_pure._registry import variants

    rows = [from_dict(d) for d in variants()]
    assert [r.id for r in rows] == [
        "pure_callback/default",
        "pure_callback/no_rule",
        "pure_callback/sharding",
        "pure_callback/sequential",
        "pure_callback/sequential_unrolled",
        "pure_callback/expand_dims",
        "pure_callback/broadcast_all",
        "pure_callback/none",
    ]
    for row in rows:
        # the sharding= row measures the pure computations only (no counter-examples)
        extra = set() if row.id == "pure_callback/sharding" else {"log_steps", "host_draw"}
        assert set(row.implementations) == {*PURE, *extra}
        for name in PURE:  # every implementation runs (unbatched) and is right
            c = by_name(name)
            args = c.make_args(np.dtype("float32"))
            out = row.implementations[name](*args)
            assert_close(out, c.reference(*args), c.tolerance(np.float32), np.float32)
    no_rule = rows[1].implementations
    assert {n: no_rule[n].__name__ for n in PURE} == {n: f"{n}_callback" for n in PURE}
