"""jaxcb_debug: native results, what the host observes, effects delivered.

What it shares with jaxcb_io (the effects' records, ordered or not, delivered when the
result is unused, the host reached only on reported steps, the default sink) is tested over
both in test_effects.py. Host calls are counted through the registry's probe
(``pkg_support.host_calls``). Validation errors are checked for every package at once in
test_validation.py. Behaviour asserted here was measured on JAX 0.10.2 and 0.12.0.1, where it is the same.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import jax
import numpy as np
import pytest
import scipy.special
from pkg_support import (
    PURE,
    arguments,
    assert_batched_records,
    assert_close,
    assert_records,
    call,
    diff_argnum,
    host_calls,
    in_axes,
    raises,
    records,
    results,
    sink_of,
)

import jaxcb_debug
from jaxcb_core import references
from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_debug import _registry

OBSERVERS = PURE  # an observer for every pure computation
EFFECTS = ("log_steps", "progress")
# what each observer reports: its inputs (in argument order), then its outputs
KEYS = {name: (arguments(name), results(name)) for name in OBSERVERS}


def public(name: str) -> Any:
    return getattr(jaxcb_debug, name)


def leaves(tree: Any) -> list[np.ndarray]:
    return [np.asarray(t) for t in (tree if isinstance(tree, tuple) else (tree,))]


def assert_report(
    report: tuple[str, dict[str, np.ndarray]], name: str, args: tuple[Any, ...], out: Any
) -> None:
    """One report of observer `name`: the inputs it was given and the result it returned."""
    seen, values = report
    inputs, outputs = KEYS[name]
    assert seen == name
    assert tuple(values) == inputs + outputs
    for key, arg in zip(inputs, args, strict=True):
        assert isinstance(values[key], np.ndarray)
        np.testing.assert_array_equal(values[key], np.asarray(arg))
    for key, result in zip(outputs, leaves(out), strict=True):
        assert values[key].dtype == result.dtype
        np.testing.assert_array_equal(values[key], result)


# --- observers ---------------------------------------------------------------------------------


def check_observer(name: str, dtype: Any, *, jit: bool, ordered: bool) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype(dtype))
    reports: list[Any] = []
    out = call(public(name), c, args, jit=jit, ordered=ordered, report=lambda *r: reports.append(r))
    jax.effects_barrier()
    assert_close(out, c.reference(*args), c.tolerance(dtype))
    assert len(reports) == 1
    assert_report(reports[0], name, args, out)


@pytest.mark.parametrize("name", OBSERVERS)
def test_observer_result_and_one_report(name: str, dtype: np.dtype[Any]) -> None:
    check_observer(name, dtype, jit=True, ordered=False)


@pytest.mark.parametrize(
    ("jit", "ordered"), [(True, True), (False, False)], ids=["jit-ordered", "eager-unordered"]
)
@pytest.mark.parametrize("name", OBSERVERS)
def test_observer_ordered_and_eager(name: str, jit: bool, ordered: bool) -> None:
    check_observer(name, np.float32, jit=jit, ordered=ordered)


@pytest.mark.parametrize("name", OBSERVERS)
def test_observer_reports_when_result_unused(name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    reports: list[Any] = []
    fn = public(name)

    def unused(*a: Any) -> Any:
        fn(*a, report=lambda *r: reports.append(r))
        return a[-1]

    jax.jit(unused)(*args)
    jax.effects_barrier()
    assert len(reports) == 1


@pytest.mark.parametrize("ordered", [False, True], ids=["unordered", "ordered"])
@pytest.mark.parametrize("name", OBSERVERS)
def test_observer_vmap_reports_each_element(name: str, ordered: bool) -> None:
    c = by_name(name)
    batched = c.batched_args(np.float32, 3)
    fn = public(name)
    reports: list[Any] = []

    def f(*a: Any) -> Any:
        return fn(*a, report=lambda *r: reports.append(r), ordered=ordered)

    out = jax.jit(jax.vmap(f, in_axes(c, batched)))(*batched)
    jax.effects_barrier()
    assert len(reports) == 3
    # unordered reports may arrive in any order: match them to elements by their inputs
    first = KEYS[name][0][c.batch_argnums[0]]
    reports.sort(key=lambda r: float(np.ravel(r[1][first])[0]))
    for i, report in enumerate(reports):
        element_out = jax.tree.map(lambda o, i=i: np.asarray(o)[i], out)
        ref = c.reference(*c.element(batched, i))
        assert_close(element_out, ref, c.tolerance(np.float32))
        assert_report(report, name, c.element(batched, i), element_out)


@pytest.mark.parametrize("name", OBSERVERS)
def test_observer_derivatives_native_and_forward_only(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    d = diff_argnum(c)
    tangent = np.ones_like(args[d])
    reports: list[Any] = []
    fn = public(name)

    def f(a: Any) -> Any:
        return fn(*args[:d], a, *args[d + 1 :], report=lambda *r: reports.append(r))

    def loss(a: Any) -> Any:
        return sum(o.sum() for o in jax.tree.leaves(f(a)))

    def both(a: Any, t: Any) -> Any:
        return jax.jvp(f, (a,), (t,)), jax.grad(loss)(a)

    (out, dout), grad = jax.jit(both)(args[d], tangent)
    jax.effects_barrier()
    rtol, atol = c.tolerance(dtype)
    for o, r in zip(leaves(dout), leaves(references.jvp(c, args, tangent)), strict=True):
        np.testing.assert_allclose(o, r, rtol=10 * rtol, atol=10 * atol)
    assert grad.shape == np.shape(args[d])
    assert np.all(np.isfinite(grad))
    # one report for jvp and one for grad, both from the primal pass: no tangents or
    # cotangents ever reach the host
    assert len(reports) == 2
    for report in reports:
        assert_report(report, name, args, out)


def test_ordered_observers_keep_program_order() -> None:
    seen: list[str] = []

    def report(name: str, values: dict[str, np.ndarray]) -> None:
        seen.append(name)

    def program(x: jax.Array) -> jax.Array:
        for _ in range(3):
            (total, _) = jaxcb_debug.sum_mean(x, report=report, ordered=True)
            x = jaxcb_debug.sin_scale(x, total, report=report, ordered=True)
        return jaxcb_debug.expm(jax.numpy.diag(x), report=report, ordered=True)

    jax.jit(program)(np.linspace(0.0, 0.1, 3).astype(np.float32))
    jax.effects_barrier()
    assert seen == ["sum_mean", "sin_scale"] * 3 + ["expm"]


def test_observer_default_report_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="jaxcb_debug"):
        jax.jit(jaxcb_debug.sum_mean)(np.arange(4, dtype=np.float32))
        jax.effects_barrier()
    (line,) = [r.getMessage() for r in caplog.records if r.name == "jaxcb_debug"]
    assert line.startswith("sum_mean {'x': array([0., 1., 2., 3.], dtype=float32), 'sum': ")


def test_bessel_second_derivative(dtype: np.dtype[Any]) -> None:
    # J_1'' = -J_1'/z - (1 - 1/z**2) J_1 (Bessel's equation); differentiable to any order.
    z = np.linspace(0.5, 6.0, 5).astype(dtype)
    j1 = jax.vmap(jax.hessian(lambda t: jaxcb_debug.bessel_jv(1, t, report=lambda *r: None)))
    out = np.asarray(jax.jit(j1)(z))
    z64 = z.astype(np.float64)
    dj = 0.5 * (scipy.special.jv(0, z64) - scipy.special.jv(2, z64))
    ref = -dj / z64 - (1 - 1 / z64**2) * scipy.special.jv(1, z64)
    np.testing.assert_allclose(out, ref, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-6)


# --- effects -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "unordered"])
@pytest.mark.parametrize("name", EFFECTS)
def test_effect_vmap_reports_each_element(name: str, ordered: bool) -> None:
    c = by_name(name)
    batched = c.batched_args(np.float32, 2)
    x0s, static = batched[0], batched[1:]
    got, sink = sink_of(c)
    fn = public(name)
    key = "debug.callback/ordered" if ordered else "debug.callback/unordered"
    with host_calls(key, name) as tally:
        jax.jit(jax.vmap(lambda x0: fn(x0, *static, ordered=ordered, **sink)))(x0s)
    # one host call per element per (reported) step, each with that element's state
    expected = [r for x0 in x0s for r in records(c, x0, *static)]
    assert tally.calls == len(expected)
    assert_batched_records(got, expected)


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_grad_native_log_sees_forward_pass(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    fn = public(name)
    grad = jax.jit(jax.grad(lambda x0: fn(x0, *args[1:], **sink).sum()))(args[0])
    jax.effects_barrier()
    expected = references.grad(c, args)  # d x_n / d x0 = 0.5**n
    np.testing.assert_allclose(grad, expected, *c.tolerance(dtype))
    assert_records(got, records(c, *args), c.tolerance(dtype))  # primal states, once each


# --- jax.debug.print ---------------------------------------------------------------------------

# numpy wraps long arrays over several lines: a "line" is one `step {k}: {x}` record
RECORD = re.compile(r"step (\d+): \[([^\]]*)\]\n")


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", EFFECTS)
def test_print_records(
    name: str, jit: bool, dtype: np.dtype[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = call(public(f"{name}_print"), c, args, jit=jit)
    jax.effects_barrier()
    text = capsys.readouterr().out
    matches = list(RECORD.finditer(text))
    assert "".join(m[0] for m in matches) == text
    expected = records(c, *args)
    assert [int(m[1]) for m in matches] == [k for k, _ in expected]
    for m, (_, x) in zip(matches, expected, strict=True):
        printed = np.array(m[2].split(), float)  # rounded to numpy's print precision
        atol = 10.0 ** -np.get_printoptions()["precision"]
        np.testing.assert_allclose(printed, x, rtol=c.tolerance(dtype)[0], atol=atol)
    assert_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", EFFECTS)
def test_print_lines_exact(
    name: str, dtype: np.dtype[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    # Dyadic states: every step is exact in both widths, so the text is known exactly.
    c = by_name(name)
    x0 = np.array([-1.0, 0.0, 0.5, 1.0], dtype)
    args = (x0, *c.make_args(dtype)[1:])
    call(public(f"{name}_print"), c, args)
    jax.effects_barrier()
    expected = [f"step {k}: {x}" for k, x in records(c, *args)]
    assert capsys.readouterr().out == "".join(f"{line}\n" for line in expected)


@pytest.mark.parametrize("name", EFFECTS)
def test_print_host_calls_through_the_probe(name: str) -> None:
    """The print row's probe reads the printed lines: one host call and record per step."""
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    with host_calls("debug.print/ordered", name) as tally:
        call(public(f"{name}_print"), c, args)
    assert tally.calls == len(records(c, *args))
    assert tally.records == [(k, None) for k, _ in records(c, *args)]


# --- package -----------------------------------------------------------------------------------


def test_registry_is_valid_and_complete() -> None:
    variants = {v.id: v for v in (from_dict(d) for d in _registry.variants())}
    assert list(variants) == [
        "debug.callback/unordered",
        "debug.callback/ordered",
        "debug.callback/partitioned",
        "debug.print/ordered",
        "debug.print/unordered",
        "debug.print/partitioned",
        "debug.log/unordered",
    ]
    for key in ("debug.callback/unordered", "debug.callback/ordered", "debug.callback/partitioned"):
        assert set(variants[key].implementations) == set(OBSERVERS + EFFECTS)
        assert set(variants[key].unsupported) == {"host_draw"}
    for key in ("debug.print/ordered", "debug.print/unordered", "debug.log/unordered"):
        assert set(variants[key].implementations) == set(EFFECTS)
    assert variants["debug.callback/partitioned"].transforms == (
        "jit",
        "pmap",
        "shard_map",
        "sharded_jit",
    )
    for v in variants.values():
        for name, m in v.modules.items():
            assert callable(m.on_host)
            assert getattr(m, name) is public(name)
    assert not hasattr(jaxcb_debug, "host_draw")
    exported = set(OBSERVERS + EFFECTS) | {
        f"{n}_{form}" for n in EFFECTS for form in ("print", "log")
    }
    assert set(jaxcb_debug.__all__) == exported


# --- jax.checkpoint and sharded inputs ------------------------------------------------------


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_under_checkpoint_reports_every_step_twice(name: str, x32: None) -> None:
    """The docstring's warning: remat runs the forward pass again inside the backward pass,
    and the debug callback with it."""
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    fn = public(name)
    loss = jax.checkpoint(lambda x0: fn(x0, *args[1:], **sink).sum())
    jax.jit(jax.grad(loss))(args[0])
    jax.effects_barrier()
    steps = [k for k, _ in records(c, *args)]
    assert [int(k) for k, _ in got] == steps + steps
    got.clear()
    jax.jit(jax.grad(lambda x0: fn(x0, *args[1:], **sink).sum()))(args[0])  # no remat: once
    jax.effects_barrier()
    assert [int(k) for k, _ in got] == steps


def sharded(x: np.ndarray) -> jax.Array:
    mesh = jax.make_mesh((len(jax.devices()),), ("d",))
    spec = jax.sharding.PartitionSpec("d")
    return jax.device_put(x, jax.sharding.NamedSharding(mesh, spec))


needs_devices = pytest.mark.skipif(len(jax.devices()) < 2, reason="needs 2 or more devices")
SHARDED_CALLS = {  # name: (call with the sharded array, its argument's name)
    "log_steps": (lambda x, **kw: jaxcb_debug.log_steps(x, 3, **kw), "x0"),
    "progress": (lambda x, **kw: jaxcb_debug.progress(x, 4, 2, **kw), "x0"),
    "sin_scale": (lambda x, **kw: jaxcb_debug.sin_scale(x, 1.0, **kw), "x"),
    "sum_mean": (lambda x, **kw: jaxcb_debug.sum_mean(x, **kw), "x"),
    "cubic_root": (lambda x, **kw: jaxcb_debug.cubic_root(x + 1, x, **kw), "a"),
    "bessel_jv": (lambda x, **kw: jaxcb_debug.bessel_jv(1, x, **kw), "z"),
}


@needs_devices
@pytest.mark.parametrize("name", SHARDED_CALLS)
def test_ordered_with_a_sharded_input_raises_a_clear_error(name: str, x32: None) -> None:
    """JAX's own error names an effect object ("The following ordered effects are not
    supported for more than 1 device: [<...OrderedDebugEffect object at 0x...>]")."""
    call, arg = SHARDED_CALLS[name]
    n = len(jax.devices())
    x = sharded(np.linspace(0.5, 1.0, 2 * n).astype(np.float32))
    message = f"{name}: ordered=True needs {arg} on one device, got {arg} on {n} devices"
    with raises(ValueError, message, whole=True):
        call(x, ordered=True, **({"log": print} if name == "log_steps" else {}))
    seen: list[Any] = []
    sink = {"log_steps": "log", "progress": "report"}.get(name, "report")
    call(x, ordered=False, **{sink: lambda *r: seen.append(r)})  # unordered works
    jax.effects_barrier()
    assert seen
    with pytest.raises(ValueError, match="ordered effects are not supported for more than 1"):
        jax.jit(lambda x: call(x, ordered=True))(x)  # under jit JAX itself refuses it


def test_bessel_reports_orders_as_int32(x32: None) -> None:
    reports: list[Any] = []
    jaxcb_debug.bessel_jv(np.uint8(3), np.ones(2, np.float32), report=lambda *r: reports.append(r))
    jax.effects_barrier()
    ((_, values),) = reports
    assert values["v"].dtype == np.int32
    assert values["v"] == 3


@needs_devices
def test_print_forms_and_expm_with_a_sharded_input_raise_a_clear_error(x32: None) -> None:
    n = len(jax.devices())
    a = sharded(np.stack([np.eye(2, dtype=np.float32)] * n))
    with raises(ValueError, f"expm: ordered=True needs a on one device, got a on {n} devices"):
        jaxcb_debug.expm(a, ordered=True)
    x = sharded(np.zeros(2 * n, np.float32))
    with raises(
        ValueError, f"log_steps_print: ordered=True needs x0 on one device, got x0 on {n} devices"
    ):
        jaxcb_debug.log_steps_print(x, 2)
    with raises(
        ValueError, f"progress_print: ordered=True needs x0 on one device, got x0 on {n} devices"
    ):
        jaxcb_debug.progress_print(x, 2, 1)


@pytest.mark.parametrize("name", EFFECTS)
def test_log_form_writes_one_record_per_step(name: str, x32: None) -> None:
    """`*_log` goes through jax.debug.log: INFO records of JAX's debugging logger, counted
    through the row's probe, one per (reported) step."""
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    fn = getattr(jaxcb_debug, f"{name}_log")
    with host_calls("debug.log/unordered", name) as tally:
        jax.block_until_ready(fn(*args))
        jax.effects_barrier()
    expected = [k for k, _ in c.records(*args)]
    assert sorted(k for k, _ in tally.records) == expected


@pytest.mark.parametrize("name", EFFECTS)
def test_print_form_unordered_prints_every_step(name: str, x32: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    fn = getattr(jaxcb_debug, f"{name}_print")
    with host_calls("debug.print/unordered", name) as tally:
        jax.block_until_ready(fn(*args, ordered=False))
        jax.effects_barrier()
    assert sorted(k for k, _ in tally.records) == [k for k, _ in c.records(*args)]
