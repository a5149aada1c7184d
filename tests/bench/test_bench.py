"""What each callback costs, against native JAX and the NumPy floor.

Off by default; ``tox -e bench`` (``pytest tests/bench -m bench --benchmark-only``)
runs every case once and writes ``docs/data/bench/<device>.json``. Cases run in an
order that keeps the columns of one table row next to each other in time, so machine
noise affects a row's ratios as little as possible. Every column comes from the catalog
and the registries (``subjects.py``), and the seeds' own code (``seeds.py``).

Suites (the ``suite`` field of the data):

- ``calls``: one jitted call per round. ``sin_scale`` sweeps n = 1 ... 10^7 float32
  elements (every power of ten from 10^2, for the crossover); the other computations
  run at one element and at one larger size. Each mechanism's no-op runs beside them.
- ``vmap``: ``jax.vmap`` over batches of 1, 8, 64, 512 of the catalog's inputs, for
  every variant that batches, against each package's pattern called once on the
  stacked data.
- ``loops``: a 1000-step ``lax.scan`` with a host call per step (the effect patterns,
  each mechanism's no-op), one host call on the stacked states, and throttled to every
  100th step (``progress``).
- ``grad``: ``jax.grad`` of the sum through the derivative rules, against native.
- ``eager``: every variant called without ``jax.jit`` (as a user calls it at the prompt),
  beside the same call jitted: what an eager call costs, and whether it recompiles.
- ``tools``: other projects' tools and JAX's own beside this site's recipes
  (``tools.py``): a progress bar's cost per step in a scan (jax-tqdm, the progress recipe),
  and what a check that passes costs (``checkify``, equinox's ``error_if``).
"""

from __future__ import annotations

import contextlib
import os
import resource
from collections.abc import Callable
from typing import Any

import blas
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import subjects as cols
import tools
from seeds import SEEDS

from jaxcb_core import bench, catalog, references

pytestmark = pytest.mark.bench

#: elements per argument in the calls suite (expm: a square matrix of that many)
CALL_SIZES: dict[str, tuple[int, ...]] = {
    "sin_scale": (1, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000),
    "sum_mean": (1, 1_000_000),
    "bessel_jv": (1, 100_000, 1_000_000),
    "expm": (1, 65_536),  # 1x1 and 256x256
    "cubic_root": (1, 1_000),  # brentq runs once per element on the host
}
BATCHES = (1, 8, 64, 512)
VMAP_NAMES = ("sin_scale", "bessel_jv", "expm", "cubic_root")
GRAD_SIZES: dict[str, tuple[int, ...]] = {"bessel_jv": (8, 10_000), "expm": (16, 4_096)}


def _blocks() -> int:
    """In how many interleaved blocks each case is measured (``JAXCB_BENCH_BLOCKS``)."""
    return int(os.environ.get("JAXCB_BENCH_BLOCKS", "4"))


def _check(name: str, out: Any, expected: Any) -> None:
    for o, e in zip(jax.tree.leaves(out), jax.tree.leaves(expected), strict=True):
        np.testing.assert_allclose(np.asarray(o), np.asarray(e), rtol=2e-3, atol=2e-4, err_msg=name)


@pytest.fixture(scope="module", autouse=True)
def _session_setup() -> Any:
    """OpenBLAS on one thread (see blas.py)."""
    blas.limit()
    yield
    blas.restore()


class Skip(Exception):
    """The subject raises for this case (not measured: the matrix says why)."""


_ROW: dict[str, Any] = {"key": None, "cases": {}, "dev": ()}


def _faults() -> int:
    """Minor page faults of this process so far (every thread: XLA's included)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def timed_call(
    subject: cols.Subject, args: tuple[Any, ...], dev_args: tuple[Any, ...]
) -> tuple[Callable[[], Any], Any, int | None, int]:
    """``(call, result, host calls per call, page faults per call)``; ``call()`` runs once
    and blocks until the result is ready. Compiled and counted inside the subject's probe
    (so its host functions are the counted ones), timed outside it. Host calls and page
    faults are counted on one untimed call after the first."""
    if not subject.jit:  # plain Python: the floor, or an implementation called eagerly
        np_args = tuple(np.asarray(a) for a in args)
        with subject.observe() as tally:
            fn = subject.build(tally)  # type: ignore[arg-type]

            def plain() -> Any:
                return jax.block_until_ready(fn(*np_args)) if subject.host else fn(*np_args)

            out = plain()  # an eager call compiles what it needs the first time
            jax.effects_barrier()
            before, faults = None if tally is None else tally.calls, _faults()
            out = plain()
            jax.effects_barrier()
            faults = _faults() - faults
            calls = None if tally is None or before is None else tally.calls - before
        return plain, out, calls, faults
    with subject.observe() as tally:
        built = subject.build(tally)
        # a fresh function for jax.jit: jitting the pattern itself would share its compile
        # cache with an earlier suite's subject, whose host function counted into that tally
        f = jax.jit(lambda *a: built(*a), donate_argnums=(0,) if subject.donate else ())
        # an in-place form is given its previous result in place of the donated argument
        # (a copy of the row's first argument to start with: the row's own is never donated)
        state = [jnp.copy(dev_args[0])] if subject.donate else list(dev_args[:1])

        def call() -> Any:
            out = jax.block_until_ready(f(*state, *dev_args[1:]))
            if subject.donate:
                state[0] = out
            return out if subject.finish is None else subject.finish(out)

        try:
            first = call()  # compiles
        except Exception as e:  # measured where it runs; the matrix has the error
            raise Skip(f"{subject.id}: {type(e).__name__}: {str(e).splitlines()[0]}") from e
        if subject.donate:  # the first result is the one computed from the row's arguments
            first = jax.tree.map(np.array, first)
        jax.effects_barrier()
        before, faults = None if tally is None else tally.calls, _faults()
        out = call()
        jax.effects_barrier()
        faults = _faults() - faults
        calls = None if tally is None or before is None else tally.calls - before
    return call, first if subject.donate else out, calls, faults


def _run(
    measure: Any,
    subject: cols.Subject,
    args: tuple[Any, ...],
    *,
    suite: str,
    computation: str,
    n: int,
    block: int,
    expected: Any = None,
    check_loop: bool = False,
    minimal: cols.Subject | None = None,
) -> None:
    """Time one case. The cases of a row share their device arguments, and a case
    compiled in block 0 is reused in the later blocks (compile time is never timed).
    ``minimal``, the minimal form a pattern is held to, is timed beside it in
    alternating rounds (it is a case of the row too, compiled once)."""
    row = (suite, computation, n)
    if _ROW["key"] != row:
        _ROW.update(key=row, cases={}, dev=tuple(jax.device_put(a) for a in args))
    where = f"{suite} {computation} n={n}"
    threads = blas.default_threads() if subject.blas_default else contextlib.nullcontext()
    with threads:
        case = _case(subject, args, expected, where)
        if isinstance(case, Skip):
            pytest.skip(str(case))
        call, calls, nbytes, faults = case
        pair = None
        if minimal is not None and not isinstance(
            beside := _case(minimal, args, expected, where), Skip
        ):
            pair = (minimal.id, beside[0])
        measure(
            call,
            suite=suite,
            computation=computation,
            variant=subject.meta(),
            n=n,
            host_calls=calls,
            nbytes=nbytes,
            page_faults=faults,
            block=block,
            blocks=_blocks(),
            check_loop=check_loop,
            pair=pair,
        )


def _case(subject: cols.Subject, args: tuple[Any, ...], expected: Any, where: str) -> Any:
    """The row's compiled ``(call, host calls, bytes, page faults)`` for ``subject``, or its Skip;
    compiled, and its result checked, the first time the row asks for it."""
    case = _ROW["cases"].get(subject.id)
    if case is None:
        try:
            call, out, calls, faults = timed_call(subject, args, _ROW["dev"])
        except Skip as e:
            case = _ROW["cases"][subject.id] = e
            return case
        if expected is not None and subject.checked:
            _check(f"{where} {subject.id}", out, expected)
        case = _ROW["cases"][subject.id] = (call, calls, _nbytes(args, out), faults)
    return case


def _nbytes(args: tuple[Any, ...], out: Any) -> int:
    return int(sum(np.asarray(a).nbytes for a in [*args, *jax.tree.leaves(out)]))


def _params(row: tuple[Any, ...], subjects: list[cols.Subject], label: str) -> list[Any]:
    """Every subject of a row in block 0, then every subject in block 1, ..."""
    return [
        pytest.param(*row, s, b, id=f"{label}-{s.id}-b{b}")
        for b in range(_blocks())
        for s in subjects
    ]


def _sized(name: str, n: int) -> tuple[Any, ...]:
    comp = catalog.by_name(name)
    assert comp.sized_args is not None
    return comp.sized_args(cols.DTYPE, n)


# ------------------------------------------------------------------------------- calls


def call_subjects(name: str) -> list[cols.Subject]:
    out = [cols.floor(name)]
    out += [s for s in (cols.floor_into(name),) if s]
    out += cols.patterns(name, "jit")
    minimal = cols.minimal_call(name)
    out += minimal + cols.minimal_send(name)
    if name == "sin_scale":  # the size sweep: fresh output buffers against one written in place
        out += cols.minimal_in_place(name) + cols.noops()
    if name in cols.BLAS_USERS and blas.available():
        out += [cols.blas_default(cols.floor(name)), *map(cols.blas_default, minimal[:1])]
    if name in SEEDS:
        out.append(SEEDS[name])
    return out


def _call_cases() -> list[Any]:
    cases = []
    for name, sizes in CALL_SIZES.items():
        subjects = call_subjects(name)
        for n in sizes:
            cases += _params((name, n), subjects, f"{name}-{n}")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _call_cases())
def test_calls(measure: Any, name: str, n: int, subject: cols.Subject, block: int) -> None:
    args = _sized(name, n)
    numpy = catalog.by_name(name).numpy
    assert numpy is not None
    expected = numpy(*args) if block == 0 else None
    check = n == 1 and subject.role == "minimal"  # the harness against a tight loop
    _run(
        measure,
        subject,
        args,
        suite="calls",
        computation=name,
        n=n,
        block=block,
        expected=expected,
        check_loop=check,
        minimal=_minimal_for(name, subject),
    )


def _minimal_for(name: str, subject: cols.Subject) -> cols.Subject | None:
    """The minimal form a pattern of the calls suite is held to, chosen as the analysis
    chooses it (``jaxcb_core.bench.Device.minimal_for``)."""
    if subject.role != "pattern":
        return None
    return bench.minimal_among(
        [*cols.minimal_call(name), *cols.minimal_send(name)],
        subject.mechanism,
        ordered=subject.id.endswith("/ordered"),
    )


# -------------------------------------------------------------------------------- vmap


def vmap_subjects(name: str) -> list[cols.Subject]:
    out = cols.patterns(name, "vmap")
    out += [cols.unbatched(s) for s in cols.first_patterns(name)]
    return [cols.floor(name), *out]


def _vmap_cases() -> list[Any]:
    cases = []
    for name in VMAP_NAMES:
        subjects = vmap_subjects(name)
        for batch in BATCHES:
            cases += _params((name, batch), subjects, f"{name}-{batch}")
    return cases


@pytest.mark.parametrize(("name", "batch", "subject", "block"), _vmap_cases())
def test_vmap(measure: Any, name: str, batch: int, subject: cols.Subject, block: int) -> None:
    comp = catalog.by_name(name)
    args = comp.batched_args(cols.DTYPE, batch, step=0.25 / batch)
    if subject.jit and subject.form == "pattern":  # the others take the stacked data
        axes = tuple(0 if i in comp.batch_argnums else None for i in range(len(args)))
        subject = subject.map(lambda f: jax.vmap(f, in_axes=axes))
    numpy = comp.numpy
    assert numpy is not None
    expected = numpy(*args) if block == 0 else None
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
    rows: dict[str, list[cols.Subject]] = {}
    for c, s in cols.loop_subjects():
        rows.setdefault(c, []).append(s)
    return [p for c, subjects in rows.items() for p in _params((c,), subjects, c)]


@pytest.mark.parametrize(("name", "subject", "block"), _loop_cases())
def test_loops(measure: Any, name: str, subject: cols.Subject, block: int) -> None:
    x0 = np.linspace(-1.0, 1.0, 8, dtype=cols.DTYPE)
    expected = catalog.by_name("log_steps").reference(x0, cols.STEPS) if block == 0 else None
    _run(
        measure,
        subject,
        (x0,),
        suite="loops",
        computation=name,
        n=cols.STEPS,
        block=block,
        expected=expected,
    )


# -------------------------------------------------------------------------------- grad


def _grad_cases() -> list[Any]:
    cases = []
    for name, sizes in GRAD_SIZES.items():
        subjects = cols.patterns(name, "grad")
        if name in SEEDS:
            subjects.append(SEEDS[name])
        for n in sizes:
            cases += _params((name, n), subjects, f"{name}-{n}")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _grad_cases())
def test_grad(measure: Any, name: str, n: int, subject: cols.Subject, block: int) -> None:
    comp = catalog.by_name(name)
    args = _sized(name, n)
    argnum = comp.diff_argnum
    assert argnum is not None
    subject = subject.map(lambda f: jax.grad(lambda *a: jnp.sum(f(*a)), argnums=argnum))
    expected = references.grad(comp, args) if block == 0 else None
    _run(
        measure,
        subject,
        args,
        suite="grad",
        computation=name,
        n=n,
        block=block,
        expected=expected,
    )


# ------------------------------------------------------------------------------- eager

EAGER: dict[str, tuple[Any, ...]] = {
    "sin_scale": (1,),
    "log_steps": (),
    "host_draw": (),
}


def _eager_args(name: str) -> tuple[Any, ...]:
    comp = catalog.by_name(name)
    return comp.sized_args(cols.DTYPE, 1) if comp.sized_args else comp.make_args(cols.DTYPE)


def _eager_cases() -> list[Any]:
    cases = []
    for name in EAGER:
        comp = catalog.by_name(name)
        subjects = []
        for v in cols.variants():
            if name not in v.implementations or not v.measured_under("eager"):
                continue
            kw = (
                {comp.sink: cols._noop_log}
                if comp.sink in ("log", "report") and v.takes(name, comp.sink)
                else {}
            )
            s = cols.pattern(v, name, **kw)
            subjects += [cols.eager(s)] if v.eager_only else [cols.eager(s), cols.jitted(s)]
        cases += _params((name, 1), subjects, f"{name}-eager")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _eager_cases())
def test_eager(measure: Any, name: str, n: int, subject: cols.Subject, block: int) -> None:
    comp = catalog.by_name(name)
    args = _eager_args(name)
    if comp.static_argnums:  # close over the static arguments (Python ints, shapes)
        static = {i: args[i] for i in comp.static_argnums}
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        arity = len(args)

        def close(f: Callable[..., Any]) -> Callable[..., Any]:
            def g(*d: Any) -> Any:
                it = iter(d)
                return f(*[static[i] if i in static else next(it) for i in range(arity)])

            return g

        subject = subject.map(close)
        args = dyn
    _run(measure, subject, args, suite="eager", computation=name, n=n, block=block)


# ------------------------------------------------------------------------------- tools


def _tools_cases() -> list[Any]:
    cases = []
    for name, sizes in tools.SIZES.items():
        subjects = tools.subjects(name)
        for n in sizes:
            cases += _params((name, n), subjects, f"{name}-{n}")
    return cases


@pytest.mark.parametrize(("name", "n", "subject", "block"), _tools_cases())
def test_tools(measure: Any, name: str, n: int, subject: cols.Subject, block: int) -> None:
    args = tools.inputs(name, n)
    expected = tools.expected(name, args) if block == 0 else None
    _run(
        measure, subject, args, suite="tools", computation=name, n=n, block=block, expected=expected
    )
