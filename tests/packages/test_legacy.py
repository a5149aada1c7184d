"""jaxcb_legacy: the removed host_callback APIs and pure_callback(vectorized=...), measured.

Runs in ``tox -e legacy`` (JAX 0.4.30, the last JAX with ``jax.experimental.host_callback``)
and skips, saying why, everywhere else. Host calls are counted through the registry's
probe (``pkg_support.host_calls``). Every message and count here was measured on JAX
0.4.30 (CPU):

- ``host_callback.call``, ``pure_callback(vectorized=True)`` and the old implicit
  sequential ``pure_callback`` all compute the catalog's results, in one host call;
- under ``vmap`` the vectorized form calls the host once with the whole batch, the
  sequential form once per element, and ``host_callback.call`` raises;
- none has a derivative rule: ``grad`` raises;
- ``id_tap`` delivers every (reported) step in order, under jit, eagerly, when the
  result is unused, under ``vmap`` (one tap per step with the whole batch) and under
  ``grad`` (the primal states only).
"""

from __future__ import annotations

import importlib.util
import logging
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

if importlib.util.find_spec("jaxcb_legacy") is None:
    pytest.skip(
        "jaxcb_legacy is not installed here: `tox -e legacy` runs it on JAX 0.4.30",
        allow_module_level=True,
    )

from jaxcb_legacy._registry import _has_host_callback

if not _has_host_callback():
    pytest.skip(
        f"JAX {jax.__version__} has no jax.experimental.host_callback (removed in 0.4.35): "
        "`tox -e legacy` runs these tests on JAX 0.4.30",
        allow_module_level=True,
    )

from pkg_support import (
    BATCH,
    PURE,
    assert_close,
    assert_records,
    call,
    diff_argnum,
    host_calls,
    in_axes,
    module,
    partial_in,
    raises,
    records,
    sink_of,
    stacked_reference,
)

from jaxcb_core import references
from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_core.probe import type_str
from jaxcb_legacy import _registry

DEPRECATED = (
    "The host_callback APIs are deprecated as of March 20, 2024. The functionality is "
    "subsumed by the new JAX external callbacks. See https://github.com/google/jax/issues/20385."
)
# Every host_callback use warns; test_host_callback_is_deprecated checks the warning.
pytestmark = pytest.mark.filterwarnings(f"ignore:{DEPRECATED[:40]}:DeprecationWarning")

EFFECTS = ("log_steps", "progress")
FORMS = {  # variant id -> the suffix of its function in each pure module
    "host_callback/call": "call",
    "pure_callback/vectorized": "vectorized",
    "pure_callback/implicit_sequential": "sequential",
}
TAP = "host_callback/id_tap"

CALL_NO_VMAP = "batching rules are implemented only for id_tap, not for call."
CALL_NO_JVP = "JVP rule is implemented only for id_tap, not for call."
PURE_NO_JVP = "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."


def form(name: str, variant: str) -> Any:
    return getattr(module("jaxcb_legacy", name), f"{name}_{FORMS[variant]}")


def fresh(f: Any) -> Any:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a)


def test_host_callback_is_deprecated() -> None:
    x = np.ones(3, np.float32)
    with pytest.warns(DeprecationWarning, match="^The host_callback APIs are deprecated") as caught:
        jax.jit(lambda x: form("sin_scale", "host_callback/call")(x, np.float32(2.0)))(x)
    assert [str(w.message) for w in caught] == [DEPRECATED]


# --- the pure computations -------------------------------------------------------------


@pytest.mark.parametrize("variant", list(FORMS))
@pytest.mark.parametrize("name", PURE)
def test_jit_matches_reference_in_one_host_call(
    name: str, variant: str, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    with host_calls(variant, name) as tally:
        out = jax.jit(fresh(form(name, variant)))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize(
    "variant", ["pure_callback/vectorized", "pure_callback/implicit_sequential"]
)
@pytest.mark.parametrize("name", PURE)
def test_vmap_host_calls(name: str, variant: str, x32: None) -> None:
    """vectorized=True: one host call with the batch; the old default: one per element."""
    c = by_name(name)
    batched = c.batched_args(np.float32, BATCH)
    with host_calls(variant, name) as tally:
        out = jax.jit(jax.vmap(fresh(form(name, variant)), in_axes=in_axes(c, batched)))(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(np.float32), np.float32)
    vectorized = variant == "pure_callback/vectorized"
    assert tally.calls == (1 if vectorized else BATCH)
    # what the host received: the batched arguments as they are, or one element at a time
    seen = batched if vectorized else c.element(batched, 0)
    assert tally.shapes == list(dict.fromkeys(type_str(np.asarray(a)) for a in seen))


def summed(c: Any, f: Any, args: tuple[Any, ...]) -> Any:
    """The sum of every output of ``f``, as a function of the differentiable argument."""
    g = partial_in(c, f, args)
    return lambda a: sum(o.sum() for o in jax.tree.leaves(g(a)))


@pytest.mark.parametrize("name", PURE)
def test_call_raises_under_vmap_and_grad(name: str, x32: None) -> None:
    """host_callback.call has neither a batching nor a JVP rule; nothing reaches the host."""
    c = by_name(name)
    variant = "host_callback/call"
    batched = c.batched_args(np.float32, BATCH)
    args = c.make_args(np.float32)
    x = args[diff_argnum(c)]
    with host_calls(variant, name) as tally:
        with raises(NotImplementedError, CALL_NO_VMAP, whole=True):
            jax.vmap(fresh(form(name, variant)), in_axes=in_axes(c, batched))(*batched)
        with raises(NotImplementedError, CALL_NO_JVP, whole=True):
            jax.grad(summed(c, form(name, variant), args))(x)
        with raises(NotImplementedError, CALL_NO_JVP):
            jax.jit(jax.grad(summed(c, form(name, variant), args)))(x)
    assert tally.calls == 0


@pytest.mark.parametrize(
    "variant", ["pure_callback/vectorized", "pure_callback/implicit_sequential"]
)
@pytest.mark.parametrize("name", PURE)
def test_pure_callback_raises_under_grad(name: str, variant: str, x32: None) -> None:
    """No derivative rule: the seeds' claims about grad fail on these bare forms."""
    c = by_name(name)
    args = c.make_args(np.float32)
    with raises(ValueError, PURE_NO_JVP, whole=True):
        jax.grad(summed(c, form(name, variant), args))(args[diff_argnum(c)])


# --- id_tap: log_steps and progress ----------------------------------------------------


def dyadic(c: Any, dtype: Any) -> tuple[Any, ...]:
    """The catalog's arguments with a dyadic start: every state is exact in both widths."""
    return (np.array([-1.0, 0.0, 0.5, 1.0], dtype), *c.make_args(np.dtype(dtype))[1:])


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", EFFECTS)
def test_tap_records_exact_and_in_order(name: str, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    tap = getattr(module("jaxcb_legacy", name), name)
    # the catalog's arguments within tolerance, a dyadic start exactly
    for args, tol in ((c.make_args(dtype), c.tolerance(dtype)), (dyadic(c, dtype), None)):
        got, sink = sink_of(c)
        with host_calls(TAP, name) as tally:
            out = call(tap, c, args, jit=jit, **sink)
        assert tally.calls == len(records(c, *args))  # progress: only the reported steps
        assert_records(got, records(c, *args), tol)
        assert_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", EFFECTS)
def test_tap_delivered_when_result_unused(name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    tap = getattr(module("jaxcb_legacy", name), name)

    def unused(x0: Any) -> Any:
        tap(x0, *args[1:], **sink)
        return x0

    with host_calls(TAP, name) as tally:
        jax.jit(unused)(args[0])
    assert tally.calls == len(records(c, *args))
    assert_records(got, records(c, *args), c.tolerance(np.float32))


@pytest.mark.parametrize("name", EFFECTS)
def test_tap_under_vmap_sees_the_whole_batch(name: str, x32: None) -> None:
    """One tap per (reported) step, with every element's state stacked: not one per element."""
    c = by_name(name)
    x0s, *static = c.batched_args(np.float32, 2)
    got, sink = sink_of(c)
    tap = getattr(module("jaxcb_legacy", name), name)
    with host_calls(TAP, name) as tally:
        out = jax.jit(jax.vmap(lambda x0: tap(x0, *static, **sink)))(x0s)
    per_element = [records(c, x0, *static) for x0 in x0s]
    stacked = [
        (k, np.stack([r[i][1] for r in per_element])) for i, (k, _) in enumerate(per_element[0])
    ]
    assert tally.calls == len(stacked)
    assert_records(got, stacked, c.tolerance(np.float32))
    assert_close(out, np.stack([c.reference(x0, *static) for x0 in x0s]), c.tolerance(np.float32))


@pytest.mark.parametrize("name", EFFECTS)
def test_tap_under_grad_sees_the_primal_states(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    tap = getattr(module("jaxcb_legacy", name), name)
    with host_calls(TAP, name) as tally:
        grad = jax.jit(jax.grad(lambda x0: tap(x0, *args[1:], **sink).sum()))(args[0])
    np.testing.assert_allclose(grad, references.grad(c, args), *c.tolerance(dtype))
    assert tally.calls == len(records(c, *args))  # once per step: no tangent taps
    assert_records(got, records(c, *args), c.tolerance(dtype))


@pytest.mark.parametrize("name", EFFECTS)
def test_tap_default_sink_logs(name: str, caplog: pytest.LogCaptureFixture) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    word = "step" if name == "log_steps" else "progress"
    with caplog.at_level(logging.INFO, logger="jaxcb_legacy"):
        call(getattr(module("jaxcb_legacy", name), name), c, args)
        jax.effects_barrier()
    lines = [r.getMessage() for r in caplog.records if r.name == "jaxcb_legacy"]
    assert [line.split(":")[0] for line in lines] == [f"{word} {k}" for k, _ in records(c, *args)]


# --- host_draw through host_callback.call ----------------------------------------------


def draws(seed: int, k: int, shape: tuple[int, ...] = (8,)) -> list[np.ndarray]:
    """The first `k` draws of a twin generator, through the catalog's reference."""
    twin, ref = np.random.default_rng(seed), by_name("host_draw").reference
    return [ref(shape, twin) for _ in range(k)]


def test_host_draw_calls_again_each_run(dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    host_draw = module("jaxcb_legacy", "host_draw").host_draw
    with host_calls("host_callback/call", "host_draw") as tally:
        f = jax.jit(lambda: host_draw((8,), rng=rng))
        a, b = f(), f()
    assert tally.calls == 2
    for out, expected in zip((a, b), draws(7, 2), strict=True):
        assert out.dtype == np.float32  # float32 under x64 too
        np.testing.assert_array_equal(out, expected)


def test_host_draw_unused_still_draws() -> None:
    """Unlike a pure callback, host_callback.call is never removed: the generator advances."""
    rng = np.random.default_rng(7)
    host_draw = module("jaxcb_legacy", "host_draw").host_draw
    with host_calls("host_callback/call", "host_draw") as tally:
        out = jax.jit(lambda x: (host_draw((8,), rng=rng), x)[1])(1.0)
    assert float(out) == 1.0
    assert tally.calls == 1
    np.testing.assert_array_equal(host_draw((8,), rng=rng), draws(7, 2)[1])


def test_host_draw_vmap_repeats_one_draw() -> None:
    """Its operand is not batched, so vmap needs no batching rule: one draw, repeated."""
    rng = np.random.default_rng(7)
    host_draw = module("jaxcb_legacy", "host_draw").host_draw
    with host_calls("host_callback/call", "host_draw") as tally:
        out = jax.vmap(lambda _: host_draw((8,), rng=rng))(jnp.arange(4.0))
    assert out.shape == (4, 8)
    assert tally.calls == 1
    np.testing.assert_array_equal(out, np.broadcast_to(draws(7, 1)[0], (4, 8)))


# --- the registry ----------------------------------------------------------------------


def test_registry_rows() -> None:
    rows = {r.id: r for r in (from_dict(d) for d in _registry.variants())}
    assert list(rows) == [
        "host_callback/call",
        "host_callback/id_tap",
        "pure_callback/vectorized",
        "pure_callback/implicit_sequential",
    ]
    assert set(rows["host_callback/call"].implementations) == {*PURE, "host_draw"}
    assert set(rows[TAP].implementations) == set(EFFECTS)
    for variant, suffix in FORMS.items():
        impls = rows[variant].implementations
        assert {n: impls[n].__name__ for n in PURE} == {n: f"{n}_{suffix}" for n in PURE}
