"""The catalog's pure computations in every package that calls the host with a derivative rule
of its own: one test body over the packages, as JAX's callback tests run one body over the
callback flavours.

The packages are found in the registries: each whose first row implements the pure
computations (or declines them on this JAX, saying why) and that exports each one's bare
``<name>_callback`` form, without a rule (``jaxcb_pure``, ``jaxcb_buffer``, ``jaxcb_ffi`` and
``jaxcb_pyffi``). They share one contract: results against the catalog in one host call, a
``custom_jvp`` rule (``custom_vjp`` for ``expm``), batching by ``vmap_method``. What differs
between them is named once, in :data:`FACTS`: the primitive JAX names when batching fails,
the default ``vmap_method``, JAX's error for differentiating the bare call, and a handler
that refuses ``expand_dims``. What only one package does stays in its own test file.

Host calls are counted through the first row's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. Everything asserted
here was measured on JAX 0.10.2 and 0.12.0.1 (CPU); where a package's row implements nothing
on the installed JAX, its tests are skipped with the registry's reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import (
    BATCH,
    OTHER_AXES,
    assert_close,
    diff_argnum,
    first_line,
    first_rows,
    host_calls,
    in_axes,
    module,
    partial_in,
    raises,
    stacked_reference,
    tangent,
)

from jaxcb_core import references
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import Variant

PURE = [c.name for c in CATALOG if c.kind == "pure"]
FORWARD = [name for name in PURE if name != "expm"]  # expm's rule is a custom_vjp
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."


def _packages() -> dict[str, Variant]:
    """``{package: its first row}`` for each package with a bare ``<name>_callback`` of
    every pure computation, whose first row implements or declines each of them."""
    return {
        package: v
        for package, v in first_rows().items()
        if all(name in v.implementations or name in v.unsupported for name in PURE)
        and all(hasattr(importlib.import_module(package), f"{name}_callback") for name in PURE)
    }


PACKAGES = _packages()


@dataclasses.dataclass(frozen=True)
class Facts:
    """What differs between the packages, as measured."""

    primitive: str  # as JAX names it in its batching error
    vmap_method: str  # the patterns' default
    # The first line of JAX's error for differentiating a call without a rule; None for an
    # FFI call: its first sentence, "The FFI call to `TARGET` cannot be differentiated."
    # (the tail differs between JAX 0.10.2 and 0.12.0.1).
    no_rule: str | None
    # expand_dims hands an unbatched operand over with a size-1 batch axis; a handler that
    # needs as many elements as the result refuses it, naming the fix.
    expand_dims_fails: frozenset[str] = frozenset()


FACTS = {
    "jaxcb_pure": Facts(
        "pure_callback",
        "expand_dims",
        "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks "
        "while taking gradients.",
    ),
    "jaxcb_buffer": Facts(
        "buffer_callback",
        "expand_dims",
        "Buffer callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks "
        "while taking gradients.",
    ),
    "jaxcb_ffi": Facts("ffi_call", "broadcast_all", None, frozenset({"bessel_jv"})),
    "jaxcb_pyffi": Facts("ffi_call", "expand_dims", None),
}


@dataclasses.dataclass(frozen=True)
class Package:
    name: str
    variant: str  # the row whose probe counts the host calls
    facts: Facts

    def fn(self, name: str) -> Callable[..., Any]:
        return getattr(importlib.import_module(self.name), name)

    @contextlib.contextmanager
    def no_rule(self, name: str) -> Iterator[None]:
        """JAX's error for differentiating ``name``'s host call, which has no rule."""
        want = self.facts.no_rule
        if want is None:  # an FFI call's first sentence
            want = f"The FFI call to `{module(self.name, name).TARGET}` cannot be differentiated."
        with pytest.raises(ValueError, match="^" + re.escape(want)) as info:
            yield
        assert type(info.value) is ValueError
        if self.facts.no_rule is not None:
            assert first_line(info) == want


@pytest.fixture(params=sorted(PACKAGES))
def pkg(request: pytest.FixtureRequest) -> Package:
    row = PACKAGES[request.param]
    if not row.implementations:
        pytest.skip(f"{row.id}: {row.unsupported[PURE[0]]}")
    return Package(row.package, row.id, FACTS[row.package])


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


def test_every_package_found_has_its_facts() -> None:
    assert set(PACKAGES) == set(FACTS)


# --- results -------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", PURE)
def test_matches_reference_in_one_host_call(
    pkg: Package, name: str, jit: bool, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    f = fresh(pkg.fn(name))
    with host_calls(pkg.variant, name) as tally:
        out = (jax.jit(f) if jit else f)(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("name", PURE)
def test_callback_matches_reference_and_has_no_rule(
    pkg: Package, name: str, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    bare = pkg.fn(f"{name}_callback")
    out = jax.jit(fresh(bare))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with pkg.no_rule(name):
        jax.grad(loss)(args[diff_argnum(c)])


# --- derivatives ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FORWARD)
def test_jvp_matches_reference(pkg: Package, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    t = tangent(c, args)
    g = partial_in(c, pkg.fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(args[diff_argnum(c)], t)
    assert_close(out, references.jvp(c, args, t), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", PURE)
def test_grad_matches_reference(pkg: Package, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    g = partial_in(c, pkg.fn(name), args)
    w = jax.tree.map(lambda o: np.linspace(-1, 1, o.size).reshape(o.shape), c.reference(*args))

    def loss(x: jax.Array) -> jax.Array:
        return sum(  # type: ignore[return-value]
            jnp.sum(wl * ol)
            for wl, ol in zip(jax.tree.leaves(w), jax.tree.leaves(g(x)), strict=True)
        )

    out = jax.jit(jax.grad(loss))(args[diff_argnum(c)])
    assert_close(out, references.grad(c, args, w), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("jac", [jax.jacfwd, jax.jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("name", FORWARD)
def test_jacobian_matches_reference(pkg: Package, name: str, jac: Any, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jac(partial_in(c, pkg.fn(name), args)))(args[diff_argnum(c)])
    assert_close(out, references.jacobian(c, args), c.tolerance(np.float64), np.float64)


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv", "cubic_root"])
def test_hessian_matches_finite_differences(pkg: Package, name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, pkg.fn(name), args)))(args[diff_argnum(c)])
    ref = references.hessian(c, args, summed=False)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


def test_sum_mean_jacobians_and_hessian(pkg: Package, x64: None) -> None:
    x = by_name("sum_mean").make_args(np.dtype("float64"))[0]
    sum_mean = pkg.fn("sum_mean")
    for jac in (jax.jacfwd, jax.jacrev):
        ds, dm = jax.jit(jac(fresh(sum_mean)))(x)
        np.testing.assert_array_equal(ds, np.ones(8))
        np.testing.assert_allclose(dm, np.full(8, 1 / 8), rtol=1e-15)
    hs, hm = jax.jit(jax.hessian(fresh(sum_mean)))(x)  # the map is linear
    np.testing.assert_array_equal(hs, np.zeros((8, 8)))
    np.testing.assert_array_equal(hm, np.zeros((8, 8)))


def test_expm_vjp_of_a_stack(pkg: Package, x64: None) -> None:
    expm = pkg.fn("expm")
    a = 0.3 * np.random.default_rng(2).standard_normal((2, 3, 3))
    g = np.random.default_rng(3).standard_normal((2, 3, 3))
    np.testing.assert_allclose(expm(a), by_name("expm").reference(a), rtol=1e-12, atol=1e-14)
    _, vjp = jax.vjp(expm, a)
    (out,) = vjp(g)
    ref = references.vjp(by_name("expm"), (a,), g)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-11)


def test_expm_has_no_forward_mode_or_second_derivative(pkg: Package, x32: None) -> None:
    expm = pkg.fn("expm")
    (a,) = by_name("expm").make_args(np.dtype("float32"))
    with raises(TypeError, NO_FORWARD):
        jax.jvp(expm, (a,), (a,))
    with raises(TypeError, NO_FORWARD):
        jax.jacfwd(expm)(a)
    with pkg.no_rule("expm"):  # the forward call, differentiated again
        jax.hessian(lambda a: expm(a).sum())(a)
    with pkg.no_rule("expm"):
        jax.grad(lambda a: jax.grad(lambda a: expm(a).sum())(a).sum())(a)


def test_bessel_jv_derivative_of_order_zero(pkg: Package, x64: None) -> None:
    """dJ_0/dz = (J_{-1} - J_1) / 2 = -J_1: the rule needs no special case."""
    import scipy.special

    z = np.linspace(0.5, 8.0, 6)
    out = jax.vmap(jax.grad(pkg.fn("bessel_jv"), argnums=1), in_axes=(None, 0))(0, z)
    np.testing.assert_allclose(out, -scipy.special.jv(1, z), rtol=1e-12, atol=1e-14)


def test_cubic_root_derivative_in_a(pkg: Package, dtype: np.dtype[Any]) -> None:
    cubic_root = pkg.fn("cubic_root")
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: cubic_root(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    assert_close(dx, ref, c.tolerance(dtype), dtype)


# --- batching ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_vmap_default_method_one_host_call(pkg: Package, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    assert pkg.facts.vmap_method == module(pkg.name, name).VMAP_METHOD
    batched = c.batched_args(dtype, BATCH)
    with host_calls(pkg.variant, name) as tally:
        out = jax.jit(jax.vmap(fresh(pkg.fn(name)), in_axes=in_axes(c, batched)))(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("method", [*METHODS, None])
@pytest.mark.parametrize("name", PURE)
def test_vmap_methods(pkg: Package, name: str, method: str | None, x32: None) -> None:
    c = by_name(name)
    dtype = np.dtype("float32")
    batched = c.batched_args(dtype, BATCH)
    f = jax.jit(jax.vmap(fresh(pkg.fn(name), vmap_method=method), in_axes=in_axes(c, batched)))
    if method is None:
        with raises(
            NotImplementedError,
            f"vmap is only supported for the {pkg.facts.primitive} primitive when vmap_method "
            "is one of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
            "'legacy_vectorized'. Got vmap_method=None.",
        ):
            f(*batched)
        return
    if method == "expand_dims" and name in pkg.facts.expand_dims_fails:
        with pytest.raises(jax.errors.JaxRuntimeError, match="needs vmap_method='broadcast_all'"):
            jax.block_until_ready(f(*batched))
        return
    with host_calls(pkg.variant, name) as tally:
        out = f(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == (BATCH if method.startswith("sequential") else 1)


@pytest.mark.parametrize(("name", "axes", "make"), OTHER_AXES)
def test_vmap_any_argument_batched(
    pkg: Package, name: str, axes: tuple[Any, ...], make: Any, dtype: np.dtype[Any]
) -> None:
    """The default vmap_method, whichever argument carries the batch: one host call.
    (expand_dims lines the batch axes up; broadcast_all hands every operand over with the
    whole batch. What the host receives: test_in_place.py.)"""
    c = by_name(name)
    args = make(dtype)
    with host_calls(pkg.variant, name) as tally:
        out = jax.jit(jax.vmap(fresh(pkg.fn(name)), in_axes=axes))(*args)
    elements = [
        [a[i] if ax == 0 else a for a, ax in zip(args, axes, strict=True)] for i in range(BATCH)
    ]
    ref = np.stack([c.reference(*e) for e in elements])
    assert_close(out, ref, c.tolerance(dtype), dtype)
    assert tally.calls == 1
