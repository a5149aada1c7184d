"""The probe contract counts what really runs on the host.

Every published ``host_calls`` comes from a variant's probe. Here the same executions
are also counted *independently*, at JAX's own dispatch of Python host callbacks
(``pure_callback_impl``, ``io_callback_impl``, the debug-callback primitive's
implementation), which knows nothing of our names: the two counts must agree, and
must equal the committed matrix cell.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import jax
import pytest

from jaxcb_core import matrix
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.matrix.cell import Recorder, run_cell
from jaxcb_core.matrix.transforms import by_id
from jaxcb_core.mechanisms import discover
from jaxcb_core.probe import Counted, HostFunctions
from jaxcb_core.schema import load_matrix

callback = pytest.importorskip("jax._src.callback")
debugging = pytest.importorskip("jax._src.debugging")
mlir = pytest.importorskip("jax._src.interpreters.mlir")
try:
    from jax._src import buffer_callback
except ImportError:  # JAX < 0.6.1
    buffer_callback = None
if not hasattr(callback, "io_callback_impl") or not hasattr(debugging, "debug_callback_p"):
    pytest.skip("this JAX dispatches host callbacks differently", allow_module_level=True)


@contextlib.contextmanager
def runtime_host_calls() -> Iterator[list[int]]:
    """Count every Python host callback JAX dispatches while the block runs."""
    count = [0]
    saved: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def counted(*args: Any, **kwargs: Any) -> Any:
            count[0] += 1
            return original(*args, **kwargs)

        saved.append((owner, name, original))
        setattr(owner, name, counted)

    wrap(callback, "pure_callback_impl")  # compiled and eager pure_callback
    wrap(callback, "io_callback_impl")  # compiled and eager io_callback
    wrap(debugging.debug_callback_p, "impl")  # debug.callback, compiled debug.print
    wrap(debugging, "debug_callback_impl")  # eager debug.print
    lowering = _count_buffer_callbacks(count)
    try:
        yield count
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)
        if lowering is not None:
            mlir._lowerings[lowering[0]] = lowering[1]


def _count_buffer_callbacks(count: list[int]) -> tuple[Any, Any] | None:
    """buffer_callback runs its Python callback from the executable: wrap the callback its
    lowering rule receives, so every run of what compiles meanwhile is counted. JAX's caches
    are cleared first: a program lowered before the block would not be lowered again."""
    if buffer_callback is None:
        return None
    jax.clear_caches()
    prim = buffer_callback.buffer_callback_p
    entry = mlir._lowerings[prim]

    def rule(ctx: Any, *args: Any, callback: Any, **params: Any) -> Any:
        def counted(*a: Any, **k: Any) -> Any:
            count[0] += 1
            return callback(*a, **k)

        return entry.rule(ctx, *args, callback=counted, **params)

    mlir._lowerings[prim] = mlir.LoweringRuleEntry(rule, entry.inline)
    return prim, entry


def _committed() -> dict[tuple[str, str, str], Any]:
    path = matrix.data_path()
    return load_matrix(path).cell_map() if path.exists() else {}


COMMITTED = _committed()
# The variants whose host side is Python that JAX dispatches. A C++ kernel's calls are
# counted by its shim only, and a Python FFI handler's (ffi_python) reach it from XLA through
# ctypes, past JAX's callback dispatch: tests/packages/test_ffi.py and test_pyffi.py check
# those counts against known ones. colocated_python runs outside any compiled program, so
# no callback dispatch sees it either: tests/packages/test_colocated.py checks its log.
CALLBACK_VARIANTS = [
    v
    for v in discover()
    if v.reaches_host
    and v.mechanism not in ("ffi_python", "colocated_python")
    and (isinstance(v.probe, HostFunctions) or v.mechanism == "debug.print")
]
# The transforms where counting is hardest: backward passes, nested derivatives, batching.
# A row measured under none of them (pure_callback's sharding= row) is checked under its own.
TRANSFORMS = ("grad", "hessian", "jacrev", "vmap", "scan")


def _transforms_of(variant: Any) -> tuple[str, ...]:
    hard = tuple(t for t in TRANSFORMS if variant.measured_under(t))
    return hard or tuple(variant.transforms or ())


def _cases() -> list[tuple[str, str, str]]:
    """Every callback variant under each of its hard transforms, once, with the computation
    least seen under that transform so far: every (computation, transform) pair of the
    cross product is met, in seconds rather than the whole product (the matrix runs that,
    and this test checks its counts against JAX's own dispatch)."""
    seen: collections.Counter[tuple[str, str]] = collections.Counter()
    out = []
    for i, v in enumerate(CALLBACK_VARIANTS):
        names = [c.name for c in CATALOG if c.name in v.implementations]
        for j, t in enumerate(_transforms_of(v)):
            if not names:
                continue
            k = min(
                range(len(names)), key=lambda k: (seen[(names[k], t)], (k - i - j) % len(names))
            )
            seen[(names[k], t)] += 1
            out.append((v.id, names[k], t))
    for v in CALLBACK_VARIANTS:  # a pair only a few rows reach (host_draw under grad, …)
        for c in CATALOG:
            for t in _transforms_of(v):
                if c.name in v.implementations and not seen[(c.name, t)]:
                    seen[(c.name, t)] += 1
                    out.append((v.id, c.name, t))
    return out


CASES = _cases()


def _check(variant_id: str, computation: str, transform: str) -> None:
    variant = next(v for v in discover() if v.id == variant_id)
    with runtime_host_calls() as count:
        cell = run_cell(variant, by_name(computation), by_id(transform))
    if cell.status == "n/a":
        return
    assert cell.host_calls == count[0], (
        f"{variant_id} × {transform} · {computation}: the probe counted {cell.host_calls} "
        f"host calls, JAX dispatched {count[0]}"
    )
    old = COMMITTED.get(cell.key())
    if old is not None:
        assert old.host_calls == cell.host_calls, f"{cell.key()}: the committed count is stale"


@pytest.mark.parametrize(
    ("variant", "computation", "transform"),
    [
        ("pure_callback/default", "expm", "grad"),  # forward + the backward pass's own host call
        ("pure_callback/default", "bessel_jv", "hessian"),  # rules calling rules
        ("debug.print/ordered", "log_steps", "scan"),  # no host function of ours: printed lines
    ],
)
def test_named_counts(variant: str, computation: str, transform: str) -> None:
    if variant not in {v.id for v in discover()}:
        pytest.skip(f"{variant} is not installed with this JAX")
    _check(variant, computation, transform)


def test_expm_grad_counts_the_backward_pass() -> None:
    """Eager grad of expm: one forward host call, one backward (expm_frechet) call."""
    cell = run_cell(
        next(v for v in discover() if v.id == "pure_callback/default"),
        by_name("expm"),
        by_id("grad"),
    )
    assert (cell.status, cell.host_calls) == ("ok", 2)


@pytest.mark.parametrize(("variant", "computation", "transform"), CASES)
def test_probe_agrees_with_jax(variant: str, computation: str, transform: str) -> None:
    _check(variant, computation, transform)


def test_cases_cover_every_callback_variant() -> None:
    covered: Callable[[str], bool] = lambda vid: any(c[0] == vid for c in CASES)  # noqa: E731
    assert all(covered(v.id) for v in CALLBACK_VARIANTS)
    pairs = {
        (c.name, t)
        for v in CALLBACK_VARIANTS
        for c in CATALOG
        for t in _transforms_of(v)
        if c.name in v.implementations
    }
    assert pairs <= {(c, t) for _, c, t in CASES}, "a computation never met under a transform"


def test_a_counted_host_function_and_a_recorder_unpickle_as_themselves() -> None:
    """colocated_python pickles the function it sends to the host, with what it captures:
    in the same process, the copy of a counting wrapper or a recording sink is the
    original, so the host's calls reach the observation that is open."""
    counted = next(
        w
        for v in discover()
        if isinstance(v.probe, HostFunctions)
        for ws in v.probe.wrappers.values()
        for w in ws
    )
    assert isinstance(counted, Counted)
    assert pickle.loads(pickle.dumps(counted)) is counted
    recorder = Recorder()
    assert pickle.loads(pickle.dumps(recorder)) is recorder
    bare = Counted(len, "len")  # never installed: nothing to refer to
    with pytest.raises(pickle.PicklingError, match="a Counted not installed cannot be pickled"):
        pickle.dumps(bare)
