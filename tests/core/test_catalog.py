"""The catalog itself: deterministic inputs, references that agree with their derivatives."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from jaxcb_core.catalog import CATALOG, by_name, log_step

NAMES = [c.name for c in CATALOG]
DIFFERENTIABLE = [c.name for c in CATALOG if c.differentiable]


def test_catalog_names_are_unique_identifiers_pure_first() -> None:
    """Each name is a module and function name in every package; the pure computations come
    first, in the matrix's row order, then the effects and the impure input."""
    assert len(set(NAMES)) == len(NAMES) >= 8
    assert all(n.isidentifier() and n == n.lower() and not n.startswith("_") for n in NAMES)
    kinds = [c.kind for c in CATALOG]
    assert kinds == sorted(kinds, key=lambda k: k != "pure")
    assert {"effect", "impure"} <= set(kinds)


def test_by_name_unknown() -> None:
    with pytest.raises(KeyError, match="no computation named 'nope'"):
        by_name("nope")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_inputs_are_deterministic_and_typed(name: str, dtype: type) -> None:
    comp = by_name(name)
    a, b = comp.make_args(np.dtype(dtype)), comp.make_args(np.dtype(dtype))
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
        if isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating):
            assert x.dtype == dtype


@pytest.mark.parametrize("name", [c.name for c in CATALOG if c.kind != "impure"])
def test_reference_keeps_the_float_width(name: str) -> None:
    comp = by_name(name)
    for dtype in (np.float32, np.float64):
        out = comp.reference(*comp.make_args(np.dtype(dtype)))
        for leaf in out if isinstance(out, tuple) else (out,):
            assert np.asarray(leaf).dtype == dtype


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_jvp_reference_matches_finite_differences(name: str) -> None:
    comp = by_name(name)
    args = comp.make_args(np.dtype(np.float64))
    i = comp.diff_argnum
    assert i is not None
    assert comp.jvp_reference is not None
    d = np.asarray(args[i], np.float64)
    t = np.random.default_rng(0).uniform(-1, 1, d.shape)
    eps = 1e-6

    def at(v: np.ndarray) -> np.ndarray:
        new = list(args)
        new[i] = v
        out = comp.reference(*new)
        leaves = out if isinstance(out, tuple) else (out,)
        return np.concatenate([np.ravel(np.asarray(leaf, np.float64)) for leaf in leaves])

    fd = (at(d + eps * t) - at(d - eps * t)) / (2 * eps)
    jvp = comp.jvp_reference(args, t)
    leaves = jvp if isinstance(jvp, tuple) else (jvp,)
    analytic = np.concatenate([np.ravel(leaf) for leaf in leaves])
    np.testing.assert_allclose(analytic, fd, rtol=1e-6, atol=1e-8)


def test_bessel_reference_is_scipy_jv() -> None:
    import scipy.special

    comp = by_name("bessel_jv")
    v, z = comp.make_args(np.dtype(np.float64))
    np.testing.assert_array_equal(comp.reference(v, z), scipy.special.jv(v, z))


def test_cubic_root_reference_solves_the_cubic() -> None:
    comp = by_name("cubic_root")
    a, b = comp.make_args(np.dtype(np.float64))
    x = comp.reference(a, b)
    np.testing.assert_allclose(x**3 + a * x - b, 0, atol=1e-12)


def test_log_records_are_every_step_in_order() -> None:
    comp = by_name("log_steps")
    x0, n = comp.make_args(np.dtype(np.float32))
    assert comp.records is not None
    records = comp.records(x0, n)
    assert [k for k, _ in records] == [1, 2, 3, 4]
    x = np.asarray(x0, np.float64)
    for _, state in records:
        x = log_step(x)
        np.testing.assert_allclose(state, x, rtol=1e-6)
    np.testing.assert_array_equal(comp.reference(x0, n), records[-1][1])


def test_progress_records_are_throttled() -> None:
    comp = by_name("progress")
    x0, n, every = comp.make_args(np.dtype(np.float32))
    assert comp.records is not None
    assert [k for k, _ in comp.records(x0, n, every)] == [4, 8, 12]


def test_batched_args_shift_each_element() -> None:
    comp = by_name("cubic_root")
    batched = comp.batched_args(np.float32, 3)
    assert [np.shape(a) for a in batched] == [(3, 8), (3, 8)]
    first = comp.element(batched, 0)
    np.testing.assert_array_equal(first[0], comp.make_args(np.dtype(np.float32))[0])
    np.testing.assert_allclose(comp.element(batched, 2)[1] - first[1], 0.5)
    bessel = by_name("bessel_jv")
    v, z = bessel.batched_args(np.float32, 2)
    assert np.shape(v) == ()
    assert np.shape(z) == (2, 8)


DIFFERENTIABLE = [c.name for c in CATALOG if c.differentiable]


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_vjp_reference_is_the_transposed_jacobian(name: str) -> None:
    """The analytic pullbacks agree with the Jacobian built from the jvp reference."""
    from jaxcb_core import references

    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    rng = np.random.default_rng(1)
    ref = c.reference(*args)
    cot = (
        tuple(rng.standard_normal(np.shape(r)) for r in ref)
        if isinstance(ref, tuple)
        else rng.standard_normal(np.shape(ref))
    )
    np.testing.assert_allclose(
        references.vjp(c, args, cot), references.jacobian_vjp(c, args, cot), rtol=1e-9, atol=1e-12
    )


@pytest.mark.parametrize("name", [c.name for c in CATALOG if c.sized_args is not None])
def test_benchmark_inputs_and_floors(name: str) -> None:
    """``sized_args`` has ``n`` elements per array; the floors compute the reference."""
    c = by_name(name)
    assert c.sized_args is not None
    assert c.numpy is not None
    n = 16
    args = c.sized_args(np.dtype("float32"), n)
    arrays = [a for a in args if np.ndim(a)]
    assert arrays
    assert all(np.size(a) == n for a in arrays)
    out, ref = c.numpy(*args), c.reference(*args)
    outs, refs = (out, ref) if isinstance(ref, tuple) else ((out,), (ref,))
    for o, r in zip(outs, refs, strict=True):
        assert np.asarray(o).dtype == np.float32
        np.testing.assert_allclose(o, r, rtol=1e-4, atol=1e-5)
    if c.numpy_into is not None:
        buf = np.empty_like(np.asarray(out))
        c.numpy_into(buf, *args)
        np.testing.assert_array_equal(buf, out)


def test_each_computations_functions_sit_in_its_section() -> None:
    """Each module of the catalog (``pure.py``, ``effects.py``) has one ``# --- NAME(...)``
    section per computation it defines, the catalog's in order: a function that one catalog
    entry alone names (inputs, reference, rules, floors), or that is named after a
    computation (``_sum_mean_vjp``, ``cubic_root_scalar``), is defined in that section."""
    import ast
    import re
    from pathlib import Path

    from jaxcb_core import catalog

    all_heads = []
    for path in sorted(Path(catalog.__file__).parent.glob("[a-z]*.py"), key=_catalog_order):
        source = path.read_text()
        heads = [
            (i, m[1])
            for i, line in enumerate(source.splitlines(), 1)
            if (m := re.match(r"# --- (\w+)\(", line))
        ]
        all_heads += [name for _, name in heads]

        def section(line: int, heads: list[tuple[int, str]] = heads) -> str | None:
            return next((name for start, name in reversed(heads) if start < line), None)

        tree = ast.parse(source)
        defined = {n.name: section(n.lineno) for n in tree.body if isinstance(n, ast.FunctionDef)}
        users: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Computation":
                kw = {k.arg: k.value for k in node.keywords}
                owner = ast.literal_eval(kw["name"])
                for value in kw.values():
                    for n in ast.walk(value):
                        if isinstance(n, ast.Name) and n.id in defined:
                            users.setdefault(n.id, set()).add(owner)
        owners = {f: next(iter(u)) for f, u in users.items() if len(u) == 1}
        owners |= {f: name for f in defined for name in NAMES if name in f}
        wrong = {f: defined[f] for f in owners if defined[f] != owners[f]}
        assert wrong == {}, path.name
    assert all_heads == NAMES


def _catalog_order(path: Any) -> int:
    """A catalog module's place: the catalog's index of its first section (the others last)."""
    import re

    first = re.search(r"^# --- (\w+)\(", path.read_text(), flags=re.M)
    return NAMES.index(first[1]) if first else len(NAMES)


# The cases the patterns' host function treats apart: non-finite inputs, a <= 0 (outside the
# catalog's inputs), b = ±0, tiny and huge magnitudes.
CUBIC_A = [-3.0, -1e-300, -0.0, 0.0, 1e-300, 0.5, 1.0, 1e300, math.nan, math.inf, -math.inf]
CUBIC_B = [-1e300, -8.0, -1.0, -1e-310, -0.0, 0.0, 1e-310, 1.0, 8.0, 1e300, math.nan, math.inf]


def _outcome(f: Any, a: float, b: float) -> tuple[Any, ...]:
    """The bits of ``f(a, b)``, or the type and message of what it raised."""
    try:
        return ("root", np.float64(f(a, b)).tobytes())
    except ValueError as e:  # brentq's: no sign change over the bracket
        return ("raised", type(e).__name__, str(e))


def test_cubic_root_scalar_is_the_patterns_host_work() -> None:
    """The benchmarks' NumPy floor solves as the patterns' host function does, bit for bit
    (what one raises, the other raises): NaN for a non-finite input, a bracket for any real
    ``a`` (a root of the cubic there too)."""
    from jaxcb_core.catalog import cubic_root_scalar

    assert math.isnan(cubic_root_scalar(math.nan, 1.0))
    assert math.isnan(cubic_root_scalar(1.0, math.inf))
    for a, b in [(-3.0, 1.0), (-3.0, -1.0), (-1e-300, 8.0), (0.0, -8.0)]:
        x = cubic_root_scalar(a, b)
        assert abs(x**3 + a * x - b) <= 1e-12 * max(1.0, abs(b)), (a, b, x)
    pattern = pytest.importorskip("jaxcb_pure.cubic_root")
    differ = [
        (a, b, mine, theirs)
        for a in CUBIC_A
        for b in CUBIC_B
        if (mine := _outcome(cubic_root_scalar, a, b)) != (theirs := _outcome(pattern._root, a, b))
    ]
    assert differ == []
