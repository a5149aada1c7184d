"""What each callback costs, against native JAX and the NumPy floor.

Off by default; ``tox -e bench`` (``pytest tests/bench -m bench --benchmark-only``)
runs every case once and writes ``docs/data/bench/<device>.json``. Cases run in an
order that keeps the columns of one table row next to each other in time, so
machine noise affects a row's ratios as little as possible.

Suites (the ``suite`` field of the data):

- ``calls``: one jitted call per round. ``sin_scale`` sweeps n = 1 ... 10^7 float32
  elements (every power of ten from 10^2, for the crossover); the other computations
  run at one element and at one larger size.
- ``vmap``: ``jax.vmap`` over batches of 1, 8, 64, 512 of the catalog's inputs, for
  the default pattern, every ``vmap_method``, the minimal form, ``io_callback``, and
  the reference: one unbatched call of the pattern on the stacked data.
- ``loops``: a 1000-step ``lax.scan`` with a host call per step, with one host call
  on the stacked states, and throttled to every 100th step (``progress``).
- ``grad``: ``jax.grad`` of the sum through the derivative rules, against native.
"""

from __future__ import annotations

import contextlib
from typing import Any

import bench_forms as forms
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg

from jaxcb_core import catalog

pytestmark = pytest.mark.bench

#: elements per argument in the calls suite (expm: a square matrix of that many)
CALL_SIZES: dict[str, tuple[int, ...]] = {
    "sin_scale": (1, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000),
    "sum_mean": (1, 1_000_000),
    "bessel_jv": (1, 100_000),
    "expm": (1, 65_536),  # 1x1 and 256x256
    "cubic_root": (1, 1_000),  # brentq runs once per element on the host
}
BATCHES = (1, 8, 64, 512)
VMAP_NAMES = ("sin_scale", "bessel_jv", "expm", "cubic_root")
GRAD_SIZES: dict[str, tuple[int, ...]] = {"bessel_jv": (8, 10_000), "expm": (16, 4_096)}


def _check(name: str, out: Any, expected: Any) -> None:
    for o, e in zip(jax.tree.leaves(out), jax.tree.leaves(expected), strict=True):
        np.testing.assert_allclose(np.asarray(o), np.asarray(e), rtol=2e-3, atol=2e-4, err_msg=name)


@pytest.fixture(scope="module", autouse=True)
def _session_setup() -> Any:
    """Count host calls; OpenBLAS on one thread (see bench_forms)."""
    forms.install_counters()
    forms.limit_blas()
    yield
    forms.restore_blas()
    forms.uninstall_counters()


_ROW: dict[str, Any] = {"key": None, "cases": {}, "dev": ()}


def _run(
    measure: Any,
    subject: forms.Subject,
    args: tuple[Any, ...],
    *,
    suite: str,
    computation: str,
    n: int,
    block: int,
    expected: Any = None,
) -> None:
    """Time one case. The cases of a row share their device arguments, and a case
    compiled in block 0 is reused in the later blocks (compile time is never timed)."""
    with forms.blas_default() if subject.blas_default else contextlib.nullcontext():
        _measure(measure, subject, args, suite, computation, n, block, expected)


def _measure(
    measure: Any,
    subject: forms.Subject,
    args: tuple[Any, ...],
    suite: str,
    computation: str,
    n: int,
    block: int,
    expected: Any,
) -> None:
    row = (suite, computation, n)
    if _ROW["key"] != row:
        _ROW.update(key=row, cases={}, dev=tuple(jax.device_put(a) for a in args))
    case = _ROW["cases"].get(subject.id)
    if case is None:
        call, out, calls = forms.timed_call(subject, args, _ROW["dev"])
        if expected is not None and subject.checked:
            _check(f"{suite} {computation} n={n} {subject.id}", out, expected)
        case = _ROW["cases"][subject.id] = (call, calls, forms.nbytes(args, out))
        del out
    call, calls, nbytes = case
    measure(
        call,
        suite=suite,
        computation=computation,
        variant=subject.meta(),
        n=n,
        host_calls=calls,
        nbytes=nbytes,
        block=block,
        blocks=forms.BLOCKS,
    )


def _params(row: tuple[Any, ...], subjects: list[forms.Subject], label: str) -> list[Any]:
    """Every subject of a row in block 0, then every subject in block 1, ..."""
    return [
        pytest.param(*row, s, b, id=f"{label}-{s.id}-b{b}")
        for b in range(forms.BLOCKS)
        for s in subjects
    ]


# ------------------------------------------------------------------------------- calls


def _call_cases() -> list[Any]:
    cases = []
    for name, sizes in CALL_SIZES.items():
        subjects = forms.call_subjects(name)
        for n in sizes:
            cases += _params((name, n), subjects, f"{name}-{n}")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _call_cases())
def test_calls(measure: Any, name: str, n: int, subject: forms.Subject, block: int) -> None:
    args = forms.inputs(name, n)
    expected = forms.FLOORS[name](*args) if block == 0 else None
    _run(
        measure, subject, args, suite="calls", computation=name, n=n, block=block, expected=expected
    )


# -------------------------------------------------------------------------------- vmap


def _vmap_cases() -> list[Any]:
    cases = []
    for name in VMAP_NAMES:
        subjects = [*forms.vmap_subjects(name), forms.unbatched(name), forms.floor(name)]
        if name in forms.BLAS_USERS:
            subjects += [s for s in (forms.floor_blas_default(name),) if s]
        for batch in BATCHES:
            cases += _params((name, batch), subjects, f"{name}-{batch}")
    return cases


@pytest.mark.parametrize(("name", "batch", "subject", "block"), _vmap_cases())
def test_vmap(measure: Any, name: str, batch: int, subject: forms.Subject, block: int) -> None:
    args = forms.batched_inputs(name, batch)
    if subject.jit and subject.id != "pure_callback/unbatched":  # the others take the stacked data
        axes = forms.in_axes(name, args)
        subject = subject.map(lambda f: jax.vmap(f, in_axes=axes))
    expected = forms.FLOORS[name](*args) if block == 0 else None
    _run(
        measure,
        subject,
        args,
        suite="vmap",
        computation=name,
        n=batch,
        block=block,
        expected=expected,
    )


# ------------------------------------------------------------------------------- loops


def _loop_cases() -> list[Any]:
    rows: dict[str, list[forms.Subject]] = {}
    for c, s in forms.loop_subjects():
        rows.setdefault(c, []).append(s)
    return [p for c, subjects in rows.items() for p in _params((c,), subjects, c)]


@pytest.mark.parametrize(("name", "subject", "block"), _loop_cases())
def test_loops(measure: Any, name: str, subject: forms.Subject, block: int) -> None:
    x0 = np.linspace(-1.0, 1.0, 8, dtype=forms.DTYPE)
    expected = catalog.by_name("log_steps").reference(x0, forms.STEPS) if block == 0 else None
    _run(
        measure,
        subject,
        (x0,),
        suite="loops",
        computation=name,
        n=forms.STEPS,
        block=block,
        expected=expected,
    )


# -------------------------------------------------------------------------------- grad


def _grad_cases() -> list[Any]:
    cases = []
    for name, sizes in GRAD_SIZES.items():
        subjects = [forms.pattern("native/jax", name), forms.pattern("pure_callback/default", name)]
        if name in forms.SEEDS:
            subjects.append(forms.SEEDS[name])
        for n in sizes:
            cases += _params((name, n), subjects, f"{name}-{n}")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _grad_cases())
def test_grad(measure: Any, name: str, n: int, subject: forms.Subject, block: int) -> None:
    comp = catalog.by_name(name)
    args = forms.inputs(name, n)
    argnum = comp.diff_argnum
    assert argnum is not None
    subject = subject.map(lambda f: jax.grad(lambda *a: jnp.sum(f(*a)), argnums=argnum))
    if name == "expm":  # the gradient of sum(expm(a)): the Frechet derivative at a^T
        a = np.asarray(args[0], np.float64)
        expected = scipy.linalg.expm_frechet(a.T, np.ones_like(a), compute_expm=False)
    else:  # elementwise: the gradient of the sum is the JVP along ones
        expected = np.asarray(comp.jvp_reference(args, np.ones_like(args[argnum])))
    _run(
        measure,
        subject,
        args,
        suite="grad",
        computation=name,
        n=n,
        block=block,
        expected=expected if block == 0 else None,
    )
