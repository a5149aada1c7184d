"""jaxcb_ffi: what its C++ handlers do beyond the contract they share: special values, fixed
summation lanes, the baseline CPU copy, the thread pool, handler calls of the rules,
validation identical to jaxcb_pure's, kernel errors, the library and the probe, the logger.

Results against the catalog, derivative rules and batching are tested with the other packages
that call the host with a rule of their own, one body over all of them, in
test_pure_computations.py. Handler calls are counted through the registry's probe (``pkg_support.host_calls``), which
reads the handlers' own counters. Messages and counts were measured on JAX 0.10.2 and
0.12.0.1 (CPU), where they agree except the tail of JAX's "cannot be differentiated"
message, so only its first sentence is compared. Where JAX has no ``jax.ffi`` (0.4.30) only
the registry test runs.
"""

from __future__ import annotations

import ctypes
import platform
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.special
from pkg_support import PURE, assert_close, compilations, first_line, host_calls, module, raises

import jaxcb_ffi
from jaxcb_core import references
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_ffi import _registry

VARIANT = "ffi_call/default"  # both rows share the modules, and so the counters
NO_FFI = _registry.missing_ffi()

needs_ffi = pytest.mark.skipif(NO_FFI is not None, reason=f"{NO_FFI}")


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_ffi, name)


def kernel_error() -> type[Exception]:
    """What a handler's ffi::Error becomes in Python."""
    return jax.errors.JaxRuntimeError


def call(f: Callable[..., Any], args: Any, jit: bool) -> Any:
    return jax.jit(lambda *a: f(*a))(*args) if jit else f(*args)


# --- results -------------------------------------------------------------------------------


@needs_ffi
@pytest.mark.parametrize("name", [*PURE, "noop"])
def test_unused_result_is_removed_under_jit(name: str, x32: None) -> None:
    """Declared without side effects, an ffi_call whose result is unused never runs."""
    args = by_name("sin_scale" if name == "noop" else name).make_args(np.dtype("float32"))
    f = (lambda x, *_: jaxcb_ffi.noop(x)) if name == "noop" else fn(name)
    with host_calls(VARIANT, name) as tally:
        out = jax.jit(lambda *a: (f(*a), a[0])[1])(*args)
        np.testing.assert_array_equal(out, args[0])
    assert tally.calls == 0


@needs_ffi
def test_noop_one_call_no_work(dtype: np.dtype[Any]) -> None:
    x = np.linspace(0, 1, 5).astype(dtype)
    with host_calls(VARIANT, "noop") as tally:
        out = jax.jit(jaxcb_ffi.noop)(x)
        jax.block_until_ready(out)
    assert (out.shape, out.dtype) == (x.shape, x.dtype)
    assert tally.calls == 1


@needs_ffi
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sin_scale_vector_sin_keeps_special_values(dtype: str, x64: None) -> None:
    """sin_scale.cc is compiled with -ffast-math (libmvec's vector sin): NaN and ±inf still
    give NaN, and large arguments, zero and subnormals match NumPy, over a vector long
    enough for the vector loop."""
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 1e4, -1e4, 1e30]
    x = np.asarray(np.resize(special, 64), dtype)
    out = np.asarray(jaxcb_ffi.sin_scale(x, 2.0))
    with np.errstate(invalid="ignore"):  # NumPy warns on sin(±inf)
        ref = np.sin(x.astype(np.float64)) * 2 + 1
    np.testing.assert_array_equal(np.isnan(out), np.isnan(ref))
    ok = ~np.isnan(ref)
    np.testing.assert_allclose(out[ok], ref[ok], rtol=1e-6 if dtype == "float32" else 1e-14)


def lane_sums(x: np.ndarray, lanes: int = 16) -> np.ndarray:
    """The sum over the last axis as sum_mean.cc adds it: in double, element i into partial
    sum i % lanes, then the partial sums in order."""
    x = np.asarray(x, np.float64)
    n = x.shape[-1]
    pad = np.zeros((*x.shape[:-1], -n % lanes))
    parts = np.concatenate([x, pad], axis=-1).reshape(*x.shape[:-1], -1, lanes)
    total = np.zeros(x.shape[:-1])
    for j in range(lanes):
        lane = np.zeros(x.shape[:-1])
        for k in range(parts.shape[-2]):  # one element at a time, as the kernel does
            lane = lane + parts[..., k, j]
        total = total + lane
    return total


@needs_ffi
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 100, 1001])
def test_sum_mean_adds_in_fixed_lanes(n: int, dtype: str, x64: None) -> None:
    """The vectorised sum adds in 16 fixed partial sums, whatever SIMD width the CPU picked:
    the result is bit for bit that order's, for a row shorter than the lanes, a whole
    number of them and a remainder."""
    x = np.random.default_rng(n).standard_normal((3, n)).astype(dtype) * 1e3
    total, mean = jaxcb_ffi.sum_mean(x)
    exact = lane_sums(x)
    np.testing.assert_array_equal(np.asarray(total), exact.astype(dtype))
    with np.errstate(invalid="ignore"):  # n == 0: 0/0
        np.testing.assert_array_equal(np.asarray(mean), (exact / n).astype(dtype))


@needs_ffi
@pytest.mark.parametrize("n", [1, 3, 7, 8, 9, 15, 16, 17, 31, 33])
def test_sin_scale_vector_loop_and_its_remainder(n: int, x32: None) -> None:
    """Lengths around the vector widths (4, 8, 16 floats): the vector loop and the
    elements left after it give the same values."""
    x = np.linspace(-3.0, 3.0, n, dtype=np.float32)
    out = np.asarray(jaxcb_ffi.sin_scale(x, 1.5))
    np.testing.assert_allclose(out, np.sin(x.astype(np.float64)) * 1.5 + 1, rtol=1e-6, atol=1e-6)


CLONES = 'target_clones("avx512f", "avx2", "default")'
VECTOR_SINF = {"_ZGVbN4v_sinf": 4, "_ZGVdN8v_sinf": 8, "_ZGVeN16v_sinf": 16}
needs_gcc_x86 = pytest.mark.skipif(
    shutil.which("g++") is None
    or shutil.which("objdump") is None
    or platform.machine() != "x86_64",
    reason="the baseline build needs g++ and objdump on x86-64",
)


def _vector_sinf(library: Path) -> set[int]:
    """The widths of glibc's vector sinf a shared library calls (its dynamic symbols)."""
    symbols = subprocess.run(["objdump", "-T", str(library)], capture_output=True, text=True)
    return {w for name, w in VECTOR_SINF.items() if name in symbols.stdout}


@pytest.fixture(scope="module")
def baseline_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sin_scale.cc, sum_mean.cc and expm.cc built as a CPU without AVX would run them: the one copy
    GCC's "default" clone holds (the x86-64 baseline, SSE2), nothing wider in the build."""
    src = Path(jaxcb_ffi.__file__).parent
    out = tmp_path_factory.mktemp("baseline")
    objects = []
    for name, flags in (("sin_scale", ["-ffast-math"]), ("sum_mean", []), ("expm", [])):
        text = (src / f"{name}.cc").read_text()
        assert CLONES in text, name  # the attribute this build takes away
        (out / f"{name}.cc").write_text(text.replace(CLONES, 'target("arch=x86-64")'))
        obj = out / f"{name}.o"
        cmd = ["g++", "-std=c++17", "-O3", "-fPIC", "-march=x86-64", *flags, "-c"]
        cmd += ["-isystem", jax.ffi.include_dir(), str(out / f"{name}.cc"), "-o", str(obj)]
        subprocess.run(cmd, check=True, capture_output=True)
        objects.append(str(obj))
    library = out / "libbaseline.so"
    subprocess.run(["g++", "-shared", *objects, "-o", str(library)], check=True)
    return library


@needs_ffi
@needs_gcc_x86
def test_the_baseline_copy_runs_silently_and_agrees(
    baseline_library: Path, capfd: pytest.CaptureFixture[str], x32: None
) -> None:
    """On a CPU without AVX-512 or AVX2 the loader picks the "default" clone. Built alone,
    that copy calls the 4-wide vector sinf only (the package's library calls all three
    widths), prints nothing, and gives sin_scale within 2 float32 rounding steps of the
    widest copy, sum_mean bit for bit (the 16 fixed lanes do not depend on the width) and
    expm within float32 rounding (the wider copies may fuse a multiply and an add)."""
    assert _vector_sinf(baseline_library) == {4}
    assert _vector_sinf(module("jaxcb_ffi", "sin_scale")._LIBRARY) == {4, 8, 16}
    lib = ctypes.CDLL(str(baseline_library))
    for target, symbol in (
        ("sin_scale", "JaxcbSinScale"),
        ("sum_mean", "JaxcbSumMean"),
        ("expm", "JaxcbExpm"),
    ):
        capsule = jax.ffi.pycapsule(getattr(lib, symbol))
        jax.ffi.register_ffi_target(f"jaxcb_test_baseline_{target}", capsule, platform="cpu")
    capfd.readouterr()
    for n in (0, 1, 3, 17, 1001, 200_003):  # empty, the scalar tail, chunks on the pool
        x = np.linspace(-50.0, 50.0, n, dtype=np.float32)
        y = np.ones((1,), np.float32) * 1.5
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        got = np.asarray(jax.ffi.ffi_call("jaxcb_test_baseline_sin_scale", out)(x, y))
        widest = np.asarray(jaxcb_ffi.sin_scale(x, 1.5))
        np.testing.assert_allclose(got, widest, rtol=0, atol=2 * np.finfo(np.float32).eps * 2.5)
        rows = x.reshape(1, n)
        outs = (jax.ShapeDtypeStruct((1,), x.dtype),) * 2
        total, mean = jax.ffi.ffi_call("jaxcb_test_baseline_sum_mean", outs)(rows)
        want_total, want_mean = jaxcb_ffi.sum_mean(rows)
        np.testing.assert_array_equal(np.asarray(total), np.asarray(want_total))
        np.testing.assert_array_equal(np.asarray(mean), np.asarray(want_mean))
    for n in (0, 1, 7, 64):  # expm: the matrix products and the solve, rows of any length
        a = np.random.default_rng(n).standard_normal((n, n)).astype(np.float32) / 4
        out = jax.ShapeDtypeStruct(a.shape, a.dtype)
        got = np.asarray(jax.ffi.ffi_call("jaxcb_test_baseline_expm", out)(a))
        np.testing.assert_allclose(got, np.asarray(jaxcb_ffi.expm(a)), rtol=2e-6, atol=2e-6)
    assert capfd.readouterr() == ("", "")


@needs_ffi
@pytest.mark.parametrize("n", [65_536, 65_537, 3 * 65_536 + 5])
def test_sin_scale_chunks_on_the_thread_pool(n: int, x32: None) -> None:
    """Inputs of more than one 65,536-element chunk are split over XLA's intra-op thread
    pool: every element, the last chunk's remainder included, is the one-thread value;
    under vmap (one y per batch element) batch rows that straddle a chunk boundary take
    their own y."""
    x = np.linspace(-3.0, 3.0, n, dtype=np.float32)
    want = np.sin(x.astype(np.float64)) * 1.5 + 1
    out = np.asarray(jax.jit(jaxcb_ffi.sin_scale)(x, 1.5))
    np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)
    rows = np.linspace(-3.0, 3.0, 3 * 70_001, dtype=np.float32).reshape(3, 70_001)
    ys = np.array([0.5, -2.0, 3.0], np.float32)
    f = jax.jit(jax.vmap(lambda x, y: jaxcb_ffi.sin_scale(x, y, vmap_method="broadcast_all")))
    got = np.asarray(f(rows, ys))
    ref = np.sin(rows.astype(np.float64)) * ys[:, None].astype(np.float64) + 1
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-5)


@needs_ffi
@pytest.mark.parametrize("name", ["sin_scale", "sum_mean"])
def test_strided_transposed_and_empty_inputs(name: str, x32: None) -> None:
    """An input that is a strided or transposed view, or has no elements, gives the
    reference values: XLA hands the handler its own dense copy."""
    base = np.linspace(-2.0, 2.0, 48, dtype=np.float32).reshape(6, 8)
    for x in (base[:, ::2], base.T, base[::2, 1:7].T, base[:0], base[:, :0]):
        args = (x, np.float32(1.5)) if name == "sin_scale" else (x,)
        got = jax.tree.leaves(fn(name)(*args))
        with warnings.catch_warnings():  # NumPy warns on the mean of an empty row (NaN)
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = jax.tree.leaves(by_name(name).numpy(*[np.asarray(a, np.float64) for a in args]))
        for g, r in zip(got, ref, strict=True):
            assert g.shape == np.shape(r)
            np.testing.assert_allclose(np.asarray(g), r, rtol=1e-6, atol=1e-6)


@needs_ffi
def test_bessel_jv_any_integer_order_and_sign_of_z(x64: None) -> None:
    """Negative orders and negative z by symmetry, against scipy.special.jv."""
    v = np.arange(-7, 8, dtype=np.int32)[:, None]
    z = np.concatenate([-np.geomspace(0.01, 60, 25), [0.0], np.geomspace(0.01, 60, 25)])
    out = jaxcb_ffi.bessel_jv(v, z)
    np.testing.assert_allclose(out, scipy.special.jv(v, z), rtol=1e-10, atol=1e-13)
    out32 = jaxcb_ffi.bessel_jv(v, z.astype(np.float32))
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, scipy.special.jv(v, z), rtol=2e-5, atol=2e-6)


@needs_ffi
@pytest.mark.parametrize("a", [1e-3, 1.0, 1e3])
def test_cubic_root_tiny_and_huge_roots_are_relatively_accurate(a: float, x64: None) -> None:
    """b = r**3 + a*r has the root r: every magnitude to a few ulps."""
    r = np.array([1e-200, 1e-30, 1e-5, 0.5, 1.0, 7.0, 1e5, 1e30, 1e100])
    r = np.concatenate([-r, r])
    b = r**3 + a * r
    out = jaxcb_ffi.cubic_root(np.full_like(b, a), b)
    np.testing.assert_allclose(out, r, rtol=1e-14, atol=0)
    # float32 is solved in double and rounded once: the float64 root of the same inputs
    r = r[np.abs(r) < 1e12]  # b = r**3 must fit in float32
    a32 = np.full(r.size, a, np.float32)
    b32 = (r**3 + a32 * r).astype(np.float32)
    out32 = jaxcb_ffi.cubic_root(a32, b32)
    assert out32.dtype == np.float32
    ref = jaxcb_ffi.cubic_root(a32.astype(np.float64), b32.astype(np.float64))
    np.testing.assert_array_equal(out32, np.asarray(ref).astype(np.float32))


# --- derivatives ---------------------------------------------------------------------------


@needs_ffi
def test_bessel_jv_derivative_handler_calls(x64: None) -> None:
    """Under jit: grad = J_{v-1} and J_{v+1}; hessian = J_{v-2}, J_v, J_{v+2} (the two
    identical J_v calls of the rule's rule are merged)."""
    c = by_name("bessel_jv")
    v, z = c.make_args(np.dtype("float64"))
    with host_calls(VARIANT, "bessel_jv") as tally:
        out = jax.jit(jax.grad(lambda z: jaxcb_ffi.bessel_jv(v, z).sum()))(z)
        assert_close(out, references.grad(c, (v, z)), c.tolerance(np.float64))
    assert tally.calls == 2
    with host_calls(VARIANT, "bessel_jv") as tally:
        jax.block_until_ready(jax.jit(jax.hessian(lambda z: jaxcb_ffi.bessel_jv(v, z)))(z))
    assert tally.calls == 3


@needs_ffi
def test_expm_backward_runs_in_the_vjp_handler(dtype: np.dtype[Any]) -> None:
    """Eager vjp: one forward and one backward handler call. Under jit, grad and jacrev
    never use the primal output, so the forward call is removed: the backward is the only
    one, and jacrev's 16 cotangents reach it in one call (broadcast_all tiles the saved a)."""
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    g = np.linspace(-1, 1, 16).reshape(4, 4).astype(dtype)
    with host_calls(VARIANT, "expm") as tally:
        _, pullback = jax.vjp(jaxcb_ffi.expm, a)
        (out,) = pullback(g)
        assert_close(out, references.vjp(c, (a,), g), c.tolerance(dtype), dtype)
    assert tally.by_function == {"jaxcb_expm": 1, "jaxcb_expm_vjp": 1}
    with host_calls(VARIANT, "expm") as tally:
        jac = jax.jit(jax.jacrev(lambda a: jaxcb_ffi.expm(a)))(a)
        assert_close(jac, references.jacobian(c, (a,)), c.tolerance(dtype), dtype)
    assert tally.by_function == {"jaxcb_expm": 0, "jaxcb_expm_vjp": 1}
    assert tally.calls == 1


@needs_ffi
def test_expm_of_large_norm_and_zero_size(x64: None) -> None:
    """Scaling and squaring: a norm of ~40 needs 7 squarings; n = 0 is an empty stack."""
    a = 6.0 * np.random.default_rng(5).standard_normal((5, 5))
    np.testing.assert_allclose(jaxcb_ffi.expm(a), by_name("expm").reference(a), rtol=1e-10)
    assert jaxcb_ffi.expm(np.zeros((3, 0, 0))).shape == (3, 0, 0)


# --- batching ------------------------------------------------------------------------------


@needs_ffi
def test_nested_vmap_one_handler_call(x32: None) -> None:
    c = by_name("sin_scale")
    x = np.linspace(-2, 2, 4).astype(np.float32)
    ys = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    f = jax.vmap(jax.vmap(lambda y: jaxcb_ffi.sin_scale(x, y)))
    with host_calls(VARIANT, "sin_scale") as tally:
        out = jax.jit(f)(ys)
        ref = np.stack([[c.reference(x, y) for y in row] for row in ys])
        assert_close(out, ref, c.tolerance(np.float32), np.float32)
    assert tally.calls == 1


# --- validation: the same mistakes raise what jaxcb_pure raises ----------------------------

MISTAKES = [
    ("sin_scale", lambda: (np.arange(3), 1.0)),
    ("sin_scale", lambda: (np.ones(3, np.float32), np.ones(2, np.float32))),
    ("sum_mean", lambda: (np.arange(3),)),
    ("sum_mean", lambda: (np.float32(1.0),)),
    ("bessel_jv", lambda: (1.5, np.ones(3, np.float32))),
    ("bessel_jv", lambda: (1, np.ones(3, np.complex64))),
    ("bessel_jv", lambda: (np.ones(3, np.int32), np.ones(4, np.float32))),
    ("expm", lambda: (np.ones((2, 2), np.int32),)),
    ("expm", lambda: (np.ones(3, np.float32),)),
    ("expm", lambda: (np.ones((2, 3), np.float32),)),
    ("cubic_root", lambda: (np.arange(3), np.ones(3, np.float32))),
    ("cubic_root", lambda: (np.ones(3, np.float32), np.arange(3))),
    ("cubic_root", lambda: (np.ones(3, np.float32), np.ones(2, np.float32))),
]


@needs_ffi
@pytest.mark.parametrize("bare", [False, True], ids=["pattern", "callback"])
@pytest.mark.parametrize(("name", "make"), MISTAKES)
def test_validation_same_as_pure(name: str, make: Any, bare: bool, x32: None) -> None:
    """Same exception type and message as jaxcb_pure, raised before XLA sees anything."""
    jaxcb_pure = pytest.importorskip("jaxcb_pure")
    attr = f"{name}_callback" if bare else name
    with pytest.raises((TypeError, ValueError)) as expected:
        getattr(jaxcb_pure, attr)(*make())
    with host_calls(VARIANT, name) as tally:
        for f in (getattr(jaxcb_ffi, attr), jax.jit(getattr(jaxcb_ffi, attr))):
            with raises(type(expected.value), str(expected.value), whole=True):
                f(*make())
    assert tally.calls == 0


# --- kernel errors: an ffi::Error becomes an exception with the kernel's message -----------
# The wrappers convert narrow floats to float32 first (test_edge_cases.py checks float16 and
# bfloat16 results), so the handlers' dtype errors are reached by a bare ffi_call here.

KERNEL_ERRORS = [
    (
        "sin_scale",
        lambda: (np.ones(3, np.float16), np.ones(3, np.float16)),
        "sin_scale kernel: float32 or float64 only, got XLA element type 10",
    ),
    (
        "sum_mean",
        lambda: (np.ones((2, 3), jnp.bfloat16),),
        "sum_mean kernel: float32 or float64 only, got XLA element type 16",
    ),
    (
        "expm",
        lambda: (np.eye(2, dtype=np.float16),),
        "expm kernel: float32 or float64 only, got XLA element type 10",
    ),
]


def bare_ffi_call(name: str) -> Callable[..., Any]:
    """The module's ffi_call with result types of the first argument's dtype, no checks."""
    m = module("jaxcb_ffi", name)
    m._register()

    def f(x: Any, *rest: Any) -> Any:
        if name == "sum_mean":
            out: Any = (jax.ShapeDtypeStruct(x.shape[:-1], x.dtype),) * 2
        else:
            out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.ffi.ffi_call(m.TARGET, out)(x, *rest)

    return f


@needs_ffi
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize(("name", "make", "message"), KERNEL_ERRORS)
def test_kernel_error_is_an_exception_with_its_message(
    name: str, make: Any, message: str, jit: bool, x32: None
) -> None:
    with host_calls(VARIANT, name) as tally, pytest.raises(kernel_error()) as info:
        jax.block_until_ready(call(bare_ffi_call(name), make(), jit))
    assert first_line(info) == f"INVALID_ARGUMENT: {message}"
    assert tally.calls == 1
    c = by_name(name)  # the process goes on: the next call works
    args = c.make_args(np.dtype("float32"))
    assert_close(fn(name)(*args), c.reference(*args), c.tolerance(np.float32), np.float32)


@needs_ffi
def test_kernel_error_under_vmap_names_the_fix(x32: None) -> None:
    """expand_dims with an unbatched x: the handler gets 4 elements for a (2, 4) result."""
    f = jax.vmap(lambda y: jaxcb_ffi.sin_scale(jnp.ones(4), y, vmap_method="expand_dims"))
    with pytest.raises(kernel_error()) as info:
        jax.block_until_ready(f(jnp.ones(2)))
    assert first_line(info) == (
        "INVALID_ARGUMENT: sin_scale kernel: x must have as many elements as the result, "
        "got 4 for 8 (an unbatched x under vmap needs vmap_method='broadcast_all')"
    )


# --- the library and the probe -------------------------------------------------------------


LOADED = [*PURE, "log_steps", "_noop"]  # every module that loads a library of its own


def fresh_copy(name: str, where: Path) -> Any:
    """The module's file copied to `where` and imported from there under another name: its
    loader's state is its own, and it looks for its library beside the copy."""
    import importlib.util

    source = Path(module("jaxcb_ffi", name).__file__)
    copy = where / source.name
    copy.write_text(source.read_text())
    spec = importlib.util.spec_from_file_location(f"jaxcb_test_copy_{name}", copy)
    assert spec is not None
    assert spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    return fresh


@needs_ffi
@pytest.mark.parametrize("name", LOADED)
def test_library_fits_the_running_jaxlib(name: str) -> None:
    """Each module's library exports the jaxlib version whose headers built it (CMakeLists.txt
    compiles it in), no newer than the running jaxlib."""
    import importlib.metadata

    m = module("jaxcb_ffi", name)
    lib = ctypes.CDLL(str(m._LIBRARY))
    lib.JaxlibVersion.restype = ctypes.c_char_p
    built = lib.JaxlibVersion().decode()
    assert m._release(built) <= m._release(importlib.metadata.version("jaxlib"))
    assert m._release("0.10.2") < m._release("0.12.0.1") < m._release("0.12.1")


@needs_ffi
def test_headers_newer_than_the_running_jaxlib_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library built against a newer jaxlib than the one running is refused before anything
    is registered (XLA would refuse its handlers when the CPU backend starts, and every JAX
    computation of the process would fail), with the commands that rebuild it."""
    import importlib.metadata

    fresh = fresh_copy("sin_scale", tmp_path)
    fresh._LIBRARY = module("jaxcb_ffi", "sin_scale")._LIBRARY
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.0.1")
    with pytest.raises(RuntimeError) as info:
        fresh._register()
    assert str(info.value).startswith("sin_scale: libsin_scale.so was built against the XLA FFI ")
    assert str(info.value).endswith(
        "newer than the running jaxlib 0.0.1: rebuild it with cmake -S . -B build "
        "-DPython_EXECUTABLE=$(which python) && cmake --build build"
    )
    assert not fresh._registered


@needs_ffi
def test_a_missing_library_says_how_to_build_it(tmp_path: Path) -> None:
    """A module copied without building its library: the error names the file and the
    commands, and the module can still be imported."""
    fresh = fresh_copy("cubic_root", tmp_path)
    with pytest.raises(RuntimeError) as info:
        fresh.cubic_root(1.0, 2.0)
    assert str(info.value) == (
        f"cubic_root: libcubic_root.so is not built: in {tmp_path}, beside cubic_root.cc and "
        "CMakeLists.txt, run cmake -S . -B build -DPython_EXECUTABLE=$(which python) && "
        "cmake --build build"
    )


@needs_ffi
def test_two_threads_tracing_a_first_call_register_once() -> None:
    """Each module registers its handlers once per process, under a lock: two threads that
    trace their first call at once register the target once (a fresh process)."""
    code = """
import threading, jax, numpy as np
seen = []
original = jax.ffi.register_ffi_target
def counted(name, *a, **k):
    seen.append(name)
    return original(name, *a, **k)
jax.ffi.register_ffi_target = counted
import jaxcb_ffi
start = threading.Barrier(4)
def first_call():
    start.wait()
    jax.jit(jaxcb_ffi.expm)(np.eye(2, dtype=np.float32)).block_until_ready()
threads = [threading.Thread(target=first_call) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(seen))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert out.strip() == "['jaxcb_expm', 'jaxcb_expm_vjp']"


@needs_ffi
def test_probe_counts_live_and_freezes_at_the_end(x32: None) -> None:
    x = np.ones(3, np.float32)
    f = jax.jit(lambda x: jaxcb_ffi.sin_scale(x, 2.0))
    with host_calls(VARIANT, "sin_scale") as tally:
        f(x).block_until_ready()
        assert tally.calls == 1  # read inside the block
        f(x).block_until_ready()
    f(x).block_until_ready()  # after the block: not counted
    assert tally.calls == 2
    assert tally.by_function == {"jaxcb_sin_scale": 2}


@needs_ffi
def test_handlers_carry_no_counter_and_run_behind_the_shim(x32: None) -> None:
    """The kernels a reader copies export nothing but handlers; the probe's slots are in
    front of every handler the package registered."""
    from jaxcb_ffi import _probe

    for name in (*PURE, "_noop"):
        m = module("jaxcb_ffi", name)
        lib = ctypes.CDLL(str(m._LIBRARY))
        for symbol in m.HANDLERS.values():
            assert hasattr(lib, symbol)
            assert not hasattr(lib, f"{symbol}Calls"), symbol
        m._register()
        for target in m.HANDLERS:
            assert target in _probe.counted_targets(), target


@needs_ffi
def test_another_packages_handler_gets_no_counting_slot() -> None:
    """The probe counts this package's handlers only: a CPU target registered by anyone
    else (here one of the library's own symbols, under another name) passes through the
    wrapped registration without taking one of the shim's 64 slots."""
    from jaxcb_ffi import _probe

    _registry.variants()  # the probe is installed
    capsule = jax.ffi.pycapsule(ctypes.CDLL(str(module("jaxcb_ffi", "_noop")._LIBRARY)).JaxcbNoop)
    jax.ffi.register_ffi_target("jaxcb_test_foreign_noop", capsule, platform="cpu")
    assert "jaxcb_test_foreign_noop" not in _probe.counted_targets()
    x = jnp.arange(3.0)
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    out = jax.jit(lambda x: jax.ffi.ffi_call("jaxcb_test_foreign_noop", out_type)(x))(x)
    assert (out.shape, out.dtype) == (x.shape, x.dtype)


@needs_ffi
def test_a_handler_registered_before_the_probe_cannot_be_observed() -> None:
    """A fresh process calls the pattern before discovering the variants: the handler runs
    without a slot, and observing it says so instead of counting 0."""
    code = """
import numpy as np, jaxcb_ffi
jaxcb_ffi.sin_scale(np.ones(2, np.float32), 2.0).block_until_ready()
from jaxcb_ffi._probe import KernelProbe
try:
    with KernelProbe().observe("sin_scale"):
        pass
except RuntimeError as e:
    print(e)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert out.strip() == (
        "jaxcb_ffi probe: FFI target 'jaxcb_sin_scale' was registered before the counting "
        "shim was installed, so its calls cannot be counted: discover the variants "
        "(jaxcb_core.mechanisms.discover()) before calling the patterns"
    )


# --- the C++ logger: an ffi_call kept for its effect ---------------------------------------
# The handler writes to file descriptor 2, which pytest's capfd reads: these tests see the
# lines themselves, apart from the probe (which reads them the same way, tested last).

STEPS = 4
NEW_GRAD = jax.__version_info__ >= (0, 12)  # measured on 0.12.0.1 and 0.10.2: they differ


def logged(err: str) -> list[tuple[int, np.ndarray]]:
    """The `(step, state)` of every line the C++ logger wrote, in order."""
    out = []
    for line in err.splitlines():
        if line.startswith("step "):
            head, _, values = line.partition("):")
            k, _, shape = head[len("step ") :].partition(" (")
            dims = tuple(int(d) for d in shape.split(",") if d)
            out.append((int(k), np.array(values.split(), float).reshape(dims)))
    return out


def owed(x0: Any, n: int = STEPS) -> list[tuple[int, np.ndarray]]:
    """Each step's state as the loop computes it, in the dtype of `x0` (`0.5 * x` is exact,
    so a fused multiply-add gives the same)."""
    x, out = np.asarray(x0), []
    for k in range(1, n + 1):
        x = x * x.dtype.type(0.5) + x.dtype.type(1)
        out.append((k, x))
    return out


def assert_logged(err: str, expected: list[tuple[int, np.ndarray]]) -> None:
    got = logged(err)
    assert [k for k, _ in got] == [k for k, _ in expected]
    for (_, a), (_, b) in zip(got, expected, strict=True):
        np.testing.assert_array_equal(a.astype(b.dtype), b)  # 9 or 17 digits read back exactly


@needs_ffi
def test_logger_writes_every_step_once_in_order(capfd: pytest.CaptureFixture[str]) -> None:
    x0 = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
    out = jaxcb_ffi.log_steps(x0, STEPS)
    np.testing.assert_allclose(out, by_name("log_steps").reference(x0, STEPS), rtol=1e-6)
    assert_logged(capfd.readouterr().err, owed(x0))
    assert capfd.readouterr().err == ""
    np.testing.assert_array_equal(jaxcb_ffi.log_steps(x0, 0), x0)
    assert logged(capfd.readouterr().err) == []


@needs_ffi
def test_logger_eager_calls_compile_once(capfd: pytest.CaptureFixture[str], x32: None) -> None:
    """The contract's "compiled once": 100 eager calls with one n, shape and dtype."""
    x0 = np.linspace(-1.0, 1.0, 5, dtype=np.float32)
    jax.block_until_ready(jaxcb_ffi.log_steps(x0, 2))  # another n: one-time setup compiles
    with compilations() as compiled:
        for _ in range(100):
            jax.block_until_ready(jaxcb_ffi.log_steps(x0, 3))
        jax.effects_barrier()
    assert len(compiled) <= 1, compiled
    assert len(logged(capfd.readouterr().err)) == 2 + 100 * 3  # every call still logged


@needs_ffi
def test_logger_is_kept_when_the_result_is_unused(capfd: pytest.CaptureFixture[str]) -> None:
    x0 = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    jax.jit(lambda x: (jaxcb_ffi.log_steps(x, STEPS), 0)[1])(x0)
    jax.effects_barrier()
    assert_logged(capfd.readouterr().err, owed(x0))


@needs_ffi
def test_logger_under_vmap_writes_each_element(capfd: pytest.CaptureFixture[str]) -> None:
    x0s = np.stack([np.linspace(-1.0, 1.0, 4, dtype=np.float32), np.full(4, 2.0, np.float32)])
    jax.jit(jax.vmap(lambda x: jaxcb_ffi.log_steps(x, STEPS)))(x0s)
    jax.effects_barrier()
    got = logged(capfd.readouterr().err)
    assert len(got) == 2 * STEPS  # vmap_method="sequential": one call per element and step
    for x0 in x0s:  # each element's own states, every step once, in order
        mine = dict(owed(x0))
        steps = [k for k, s in got if np.array_equal(s.astype(np.float32), mine[k])]
        assert steps == list(range(1, STEPS + 1))


@needs_ffi
@pytest.mark.parametrize("remat", [False, True], ids=["grad", "grad-checkpoint"])
def test_logger_under_grad(remat: bool, capfd: pytest.CaptureFixture[str]) -> None:
    """0.12.0.1 logs the forward pass once; 0.10.2 logs nothing, and refuses remat."""
    x0 = np.linspace(-1.0, 1.0, 4, dtype=np.float32)

    def loss(x: jax.Array) -> jax.Array:
        return jaxcb_ffi.log_steps(x, STEPS).sum()

    f = jax.checkpoint(loss) if remat else loss
    if remat and not NEW_GRAD:
        with pytest.raises(NotImplementedError) as info:
            jax.grad(f)(x0)
        assert first_line(info) == (
            "Effects not supported in partial-eval of `checkpoint`/`remat`: [FfiEffect()]"
        )
        return
    g = jax.grad(f)(x0)
    jax.effects_barrier()
    np.testing.assert_allclose(g, np.full(4, 0.5**STEPS))
    err = capfd.readouterr().err
    if NEW_GRAD:
        assert_logged(err, owed(x0))
    else:
        assert logged(err) == []


@needs_ffi
def test_logger_under_jvp_logs_the_forward_pass(capfd: pytest.CaptureFixture[str]) -> None:
    x0 = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    step = np.ones(4, np.float32)
    _, tangent_out = jax.jvp(lambda x: jaxcb_ffi.log_steps(x, STEPS), (x0,), (step,))
    jax.effects_barrier()
    np.testing.assert_allclose(tangent_out, np.full(4, 0.5**STEPS))
    assert_logged(capfd.readouterr().err, owed(x0))


@needs_ffi
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_logger_dtypes(dtype: str, capfd: pytest.CaptureFixture[str], x64: None) -> None:
    x0 = jnp.linspace(-1.0, 1.0, 3, dtype=dtype)
    out = jaxcb_ffi.log_steps(x0, STEPS)
    assert out.dtype == x0.dtype
    states = [x0]
    for _ in range(STEPS):
        states.append(0.5 * states[-1] + 1)  # in the dtype of x0, as the loop computes
    wide = np.float64 if dtype == "float64" else np.float32  # what the handler writes
    expected = [(k, np.asarray(s.astype(wide))) for k, s in enumerate(states[1:], 1)]
    assert_logged(capfd.readouterr().err, expected)


@needs_ffi
def test_logger_with_a_sharded_input() -> None:
    if len(jax.devices()) < 2:
        pytest.skip("needs 2 or more devices")
    n = len(jax.devices())
    mesh = jax.make_mesh((n,), ("d",))
    x = jax.device_put(
        np.linspace(0.5, 1.0, 2 * n).astype(np.float32),
        jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("d")),
    )
    message = (
        "log_steps: x0 must be on one device (XLA cannot partition a side-effecting FFI call), "
        f"got x0 on {n} devices"
    )
    with raises(ValueError, message, whole=True):
        jaxcb_ffi.log_steps(x, STEPS)
    traced = message.replace(f"got x0 on {n} devices", f"got x0 traced on a mesh of {n} devices")
    with raises(ValueError, traced, whole=True):  # from the mesh the traced type names
        jax.jit(lambda x: jaxcb_ffi.log_steps(x, STEPS))(x)
    # a NumPy x0 placed by in_shardings is traced with no mesh in its type: XLA refuses
    placed = jax.jit(lambda x: jaxcb_ffi.log_steps(x, STEPS), in_shardings=x.sharding)
    with pytest.raises(jax.errors.JaxRuntimeError, match="Side-effect HLO must have sharding"):
        placed(np.asarray(x))


@needs_ffi
def test_logger_kernel_errors(capfd: pytest.CaptureFixture[str]) -> None:
    """The handler refuses what it cannot write with an ffi::Error, and a zero-size state
    is a line with no values."""
    logger = module("jaxcb_ffi", "log_steps")
    logger._register()
    call = jax.ffi.ffi_call(logger.TARGET, (), has_side_effect=True)
    with raises(
        kernel_error(),
        "INVALID_ARGUMENT: log_steps kernel: float32 or float64 only, got XLA element type 4",
    ):
        call(jnp.int32(1), jnp.ones(3, jnp.int32))
        jax.effects_barrier()
    with raises(
        kernel_error(), "INVALID_ARGUMENT: log_steps kernel: k must be one int32 step number"
    ):
        call(jnp.ones(2, jnp.int32), jnp.ones(3, jnp.float32))
        jax.effects_barrier()
    call(jnp.int32(7), jnp.ones((2, 0), jnp.float32))
    jax.effects_barrier()
    assert capfd.readouterr().err.splitlines()[-1] == "step 7 (2,0):"


@needs_ffi
def test_the_probe_reads_the_loggers_lines_and_passes_others_on(
    capfd: pytest.CaptureFixture[str],
) -> None:
    import os

    x0 = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    with host_calls(VARIANT, "log_steps") as tally:
        jaxcb_ffi.log_steps(x0, STEPS)
        os.write(2, b"a line that is not the logger's\n")
    assert tally.calls == STEPS  # the counting shim
    got = tally.records
    assert [k for k, _ in got] == list(range(1, STEPS + 1))
    for (_, a), (_, b) in zip(got, owed(x0), strict=True):
        np.testing.assert_array_equal(a.astype(b.dtype), b)
    assert capfd.readouterr().err == "a line that is not the logger's\n"


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    rows = [from_dict(d) for d in _registry.variants()]
    assert [(r.id, r.order, r.mechanism) for r in rows] == [
        ("ffi_call/default", 55, "ffi_call"),
        ("ffi_call/no_rule", 56, "ffi_call"),
    ]
    names = {c.name for c in CATALOG}
    for row in rows:
        assert row.probe is _registry.PROBE
        if NO_FFI is not None:
            assert row.implementations == {}
            assert row.unsupported == dict.fromkeys(names, NO_FFI)
            continue
        logger = {"log_steps"} if row.id == VARIANT else set()
        assert set(row.implementations) == set(PURE) | logger
        assert set(row.unsupported) == {"log_steps", "host_draw", "progress"} - logger
        assert row.bare == {"noop": jaxcb_ffi.noop}
        for name in PURE:  # every implementation runs and is right
            c = by_name(name)
            args = c.make_args(np.dtype("float32"))
            out = row.implementations[name](*args)
            assert_close(out, c.reference(*args), c.tolerance(np.float32), np.float32)
    if NO_FFI is None:
        no_rule = rows[1].implementations
        assert {n: no_rule[n].__name__ for n in PURE} == {n: f"{n}_callback" for n in PURE}


def test_registry_without_jax_ffi(monkeypatch: pytest.MonkeyPatch) -> None:
    """What JAX 0.4.30 gets: both rows, every computation unsupported with the reason."""
    reason = "jax.ffi is not in JAX 0.4.30 (added in 0.4.32 as jax.extend.ffi, jax.ffi since 0.5.0)"
    monkeypatch.setattr(_registry, "missing_ffi", lambda: reason)
    rows = [from_dict(d) for d in _registry.variants()]
    assert [r.id for r in rows] == ["ffi_call/default", "ffi_call/no_rule"]
    for row in rows:
        assert row.implementations == {}
        assert row.unsupported == dict.fromkeys((c.name for c in CATALOG), reason)
        assert row.bare == {}


# --- the files the site includes -----------------------------------------------------------


@pytest.mark.parametrize("name", [*PURE, "log_steps", "_noop"])
def test_snippet_sections(name: str) -> None:
    """Each wrapper and its handler carry the named sections the site includes, balanced."""
    from pathlib import Path

    src = Path(module("jaxcb_ffi", name).__file__).parent  # the .cc files ship beside it
    sections = {
        ".py": {"_noop": ["pattern"], "log_steps": ["register", "pattern"]}.get(
            name, ["register", "callback", "pattern"]
        ),
        ".cc": ["kernel"],
    }
    for suffix, names in sections.items():
        text = (src / f"{name}{suffix}").read_text()
        mark = "#" if suffix == ".py" else "//"
        for section in names:
            start = text.count(f"{mark} --8<-- [start:{section}]")
            end = text.count(f"{mark} --8<-- [end:{section}]")
            assert (start, end) == (1, 1), f"{name}{suffix}: {section}"
