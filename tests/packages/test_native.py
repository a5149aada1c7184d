"""jaxcb_native and jaxcb_compute_on: every pure computation against the catalog's reference.

jaxcb_compute_on runs jaxcb_native's jax.numpy code with its operations marked for the host
(``compute_on("device_host")``), so one body checks both packages.

Validation errors are checked for every package at once in test_validation.py.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg
import scipy.special
from pkg_support import (
    PURE,
    assert_close,
    diff_argnum,
    in_axes,
    partial_in,
    stacked_reference,
    tangent,
)

import jaxcb_compute_on
import jaxcb_native
from jaxcb_core import references
from jaxcb_core.catalog import by_name

NAMES = PURE  # every pure computation of the catalog
PACKAGES = {"jaxcb_native": jaxcb_native, "jaxcb_compute_on": jaxcb_compute_on}
HOST_MARK = '_xla_compute_type = "host"'  # what compute_on writes on each operation it moves


@pytest.fixture(params=sorted(PACKAGES))
def package(request: pytest.FixtureRequest) -> Any:
    return PACKAGES[request.param]


@pytest.fixture
def fn(package: Any) -> Callable[[str], Callable[..., Any]]:
    return lambda name: getattr(package, name)


# --- the catalog cases ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_jit_matches_reference(name: str, dtype: np.dtype[Any], fn: Any) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = jax.jit(fn(name))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", NAMES)
def test_jvp_matches_reference(name: str, dtype: np.dtype[Any], fn: Any) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    t = tangent(c, args)
    g = partial_in(c, fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(args[diff_argnum(c)], t)
    assert_close(out, references.jvp(c, args, t), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", NAMES)
def test_grad_matches_reference(name: str, dtype: np.dtype[Any], fn: Any) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    g = partial_in(c, fn(name), args)
    w = jax.tree.map(lambda o: np.linspace(-1, 1, o.size).reshape(o.shape), c.reference(*args))

    def loss(x: jax.Array) -> jax.Array:
        return sum(  # type: ignore[return-value]
            jnp.sum(wl * ol)
            for wl, ol in zip(jax.tree.leaves(w), jax.tree.leaves(g(x)), strict=True)
        )

    out = jax.jit(jax.grad(loss))(args[diff_argnum(c)])
    assert_close(out, references.grad(c, args, w), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv"])
def test_hessian_matches_finite_differences(name: str, x64: None, fn: Any) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, fn(name), args)))(args[diff_argnum(c)])
    ref = references.hessian(c, args, summed=False)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", NAMES)
def test_vmap_matches_stacked_reference(name: str, dtype: np.dtype[Any], fn: Any) -> None:
    c = by_name(name)
    batched = c.batched_args(dtype, 3)
    out = jax.jit(jax.vmap(fn(name), in_axes=in_axes(c, batched)))(*batched)
    assert_close(out, stacked_reference(c, batched, 3), c.tolerance(dtype), dtype)


# --- beyond the catalog inputs ---------------------------------------------------------------


def test_bessel_jv_broadcasts_orders_and_promotes_int_z(dtype: np.dtype[Any], package: Any) -> None:
    bessel_jv = package.bessel_jv
    v = np.array([[-3], [0], [2]], np.int32)
    z = np.linspace(0.5, 5.0, 5).astype(dtype)
    out = jax.jit(bessel_jv)(v, z)
    assert out.shape == (3, 5)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, scipy.special.jv(v, z.astype(np.float64)), atol=1e-6)
    out = bessel_jv(np.int8(2), np.arange(1, 4))  # small int order, integer z
    assert out.dtype == dtype  # the default float of the mode
    np.testing.assert_allclose(out, scipy.special.jv(2, [1.0, 2.0, 3.0]), atol=1e-6)


def test_cubic_root_derivative_in_a(dtype: np.dtype[Any], package: Any) -> None:
    """Autodiff through Cardano + Newton gives the implicit derivative in `a` too."""
    cubic_root = package.cubic_root
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: cubic_root(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    rtol, atol = c.tolerance(dtype)
    np.testing.assert_allclose(dx, ref, rtol=rtol, atol=atol)


def test_expm_stack_of_matrices(dtype: np.dtype[Any], package: Any) -> None:
    expm = package.expm
    a = 0.5 * np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype(dtype)
    out = jax.jit(expm)(a)
    assert out.shape == a.shape
    assert out.dtype == dtype
    ref = np.stack([scipy.linalg.expm(m) for m in a.reshape(-1, 4, 4).astype(np.float64)])
    rtol, atol = by_name("expm").tolerance(dtype)
    np.testing.assert_allclose(out, ref.reshape(a.shape), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", NAMES)
def test_operations_marked_for_the_host(name: str) -> None:
    """compute_on marks the operations of the lowered program; the native package none."""
    args = by_name(name).make_args(np.dtype("float32"))
    marked = jax.jit(getattr(jaxcb_compute_on, name)).lower(*args).as_text()
    plain = jax.jit(getattr(jaxcb_native, name)).lower(*args).as_text()
    assert marked.count(HOST_MARK) > 0
    assert plain.count(HOST_MARK) == 0


LOWERING = """
import jax, numpy as np, jaxcb_compute_on, jaxcb_native
def outcome(f, a):
    try:
        jax.jit(f)(a)
        return "ok"
    except AttributeError:
        return "AttributeError"
a = np.array([[0.0, -0.5], [0.5, 0.0]], np.float32)
print(outcome(jaxcb_compute_on.expm, a), outcome(jaxcb_native.expm, a))
"""


def test_the_registry_knows_where_compute_on_lowers() -> None:
    """On JAX 0.4.30 compute_on's expm fails to lower, and after it native expm fails too, in
    the same process: the registry measures nothing there (`tox -e legacy` runs this test).
    A fresh process runs it, since the failure would leak into this one."""
    from jaxcb_compute_on import _registry

    run = subprocess.run([sys.executable, "-c", LOWERING], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    expected = ["AttributeError", "AttributeError"] if _registry.BROKEN else ["ok", "ok"]
    assert run.stdout.split() == expected


@pytest.mark.parametrize(
    ("package_name", "row_id"),
    [("jaxcb_native", "native/jax"), ("jaxcb_compute_on", "compute_on/device_host")],
)
def test_registry_row(package_name: str, row_id: str) -> None:
    import importlib

    from jaxcb_core.mechanisms import from_dict

    variants = importlib.import_module(f"{package_name}._registry").variants
    (row,) = [from_dict(d) for d in variants()]
    assert row.id == row_id
    assert row.probe is None  # nothing runs on the host
    assert {n: f.__name__ for n, f in row.implementations.items()} == {n: n for n in NAMES}
    assert set(row.unsupported) == {"log_steps", "host_draw", "progress"}
