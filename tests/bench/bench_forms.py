"""What the benchmarks time next to the jaxcb patterns.

- the **floor**: the same NumPy/SciPy function called directly from Python on NumPy
  arrays: no JAX, no callback. No callback can be faster than this.
- the **minimal form** of each mechanism: the bare ``jax.pure_callback(np_fn, spec,
  *args, vmap_method=...)``, ``io_callback(np_fn, spec, *args)``, and the native result
  observed by ``jax.debug.callback(noop, *args, out)``. A pattern should cost no more.
- the **seeds' own code** (seed 000's ``np.array(x)`` conversion, seed 004's ``jv``),
  adapted only as needed to run on current JAX.
- the **patterns** themselves, found with ``jaxcb_core.mechanisms.discover()``.

Every case is a :class:`Subject`: ``build(wrap)`` returns the JAX-level function, with
``wrap`` applied to its host function so that host calls can be counted; patterns
are counted by wrapping their module's ``on_host`` instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import math
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
import scipy.special
from jax.experimental import io_callback

from jaxcb_core import catalog
from jaxcb_core.mechanisms import Variant, discover

DTYPE = np.float32
BLOCKS = int(os.environ.get("JAXCB_BENCH_BLOCKS", "4"))  # interleaved blocks per case
STEPS = 1000  # lax.scan length in the loop cases
EVERY = 100  # the throttled report interval
BLAS_USERS = ("expm",)  # host code that calls a multi-threaded BLAS
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all")

Wrap = Callable[[Callable[..., Any]], Callable[..., Any]]


def _identity(f: Callable[..., Any]) -> Callable[..., Any]:
    return f


@dataclasses.dataclass(frozen=True)
class Subject:
    """One column of a benchmark table."""

    id: str
    label: str
    role: str  # floor | native | pattern | minimal | seed | reference
    mechanism: str
    doc: str
    build: Callable[[Wrap], Callable[..., Any]]
    module: Any = None  # pattern module whose on_host is wrapped to count host calls
    host: bool = True  # False: nothing runs on the host (native, the floor)
    jit: bool = True  # False: plain Python on NumPy arrays (the floor)
    order: int = 50  # column order on the site (discovered variants bring their own)
    checked: bool = True  # False: the result is not the computation's (no host work)
    blas_default: bool = False  # True: measured with OpenBLAS's default threads

    def meta(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "role": self.role,
            "mechanism": self.mechanism,
            "doc": self.doc,
            "order": self.order,
        }

    def fn(self) -> Callable[..., Any]:
        return self.build(_identity)

    def map(
        self, transform: Callable[[Callable[..., Any]], Callable[..., Any]], **kw: Any
    ) -> Subject:
        """The same subject with ``transform`` applied to its function (vmap, grad)."""
        build = self.build
        return dataclasses.replace(self, build=lambda wrap: transform(build(wrap)), **kw)


# ---------------------------------------------------------------------------------- inputs


def inputs(name: str, n: int) -> tuple[Any, ...]:
    """NumPy arguments of ``name`` with ``n`` elements per array argument (float32)."""
    if name == "sin_scale":
        return (np.linspace(-2.0, 2.0, n, dtype=DTYPE), np.asarray(1.5, DTYPE))
    if name == "sum_mean":
        return (np.linspace(0.5, 4.0, n, dtype=DTYPE),)
    if name == "bessel_jv":
        return (np.asarray(1, np.int32), np.linspace(0.25, 6.0, n, dtype=DTYPE))
    if name == "expm":
        m = math.isqrt(n)
        assert m * m == n, f"expm takes a square number of elements, got {n}"
        rng = np.random.default_rng(4)
        return ((0.5 / math.sqrt(m) * rng.standard_normal((m, m))).astype(DTYPE),)
    if name == "cubic_root":
        return (np.linspace(0.5, 2.0, n, dtype=DTYPE), np.linspace(-3.0, 4.0, n, dtype=DTYPE))
    raise KeyError(name)


def batched_inputs(name: str, batch: int) -> tuple[Any, ...]:
    """The catalog's test inputs (8 elements, or one 4x4 matrix) with a leading batch axis.

    Element ``k`` is the base input shifted by ``0.25 * k / batch``: every batch element
    differs, and inputs stay in the same range whatever the batch size.
    """
    comp = catalog.by_name(name)
    out = []
    for i, a in enumerate(comp.make_args(np.dtype(DTYPE))):
        if i in comp.batch_argnums:
            a = np.asarray(a)
            a = np.stack([a + 0.25 * k / batch for k in range(batch)]).astype(a.dtype)
        out.append(a)
    return tuple(out)


def in_axes(name: str, args: tuple[Any, ...]) -> tuple[int | None, ...]:
    batched = catalog.by_name(name).batch_argnums
    return tuple(0 if i in batched else None for i in range(len(args)))


# ---------------------------------------------------------------------------------- floors
# The NumPy/SciPy code a user would write without JAX. Arguments are NumPy arrays.


def _sin_scale(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.sin(x) * y
    out += 1
    return out


def _sum_mean(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.sum(axis=-1, dtype=x.dtype), x.mean(axis=-1, dtype=x.dtype)


def _bessel_jv(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    return scipy.special.jv(v, z).astype(z.dtype, copy=False)


def _expm(a: np.ndarray) -> np.ndarray:
    return scipy.linalg.expm(a).astype(a.dtype, copy=False)


def _cubic_root(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    out = np.empty(a.shape, a.dtype)
    for i in np.ndindex(a.shape):
        out[i] = catalog.cubic_root_scalar(float(a[i]), float(b[i]))
    return out


FLOORS: dict[str, Callable[..., Any]] = {
    "sin_scale": _sin_scale,
    "sum_mean": _sum_mean,
    "bessel_jv": _bessel_jv,
    "expm": _expm,
    "cubic_root": _cubic_root,
}


def floor(name: str) -> Subject:
    return Subject(
        id="floor/numpy",
        order=0,
        label="NumPy floor",
        role="floor",
        mechanism="numpy",
        doc="The same NumPy/SciPy function called directly from Python on NumPy arrays.",
        build=lambda wrap: FLOORS[name],
        host=False,
        jit=False,
    )


# ---------------------------------------------------------------------------- minimal forms


def _host(name: str) -> Callable[..., Any]:
    fn = FLOORS[name]

    def host(*args: Any) -> Any:
        return fn(*(np.asarray(a) for a in args))

    return host


def _noop(*args: Any) -> None:
    return None


def minimal_pure(
    name: str, native: Callable[..., Any], vmap_method: str = "expand_dims"
) -> Subject:
    def build(wrap: Wrap) -> Callable[..., Any]:
        host = wrap(_host(name))

        def f(*args: Any) -> Any:
            spec = jax.eval_shape(native, *args)
            return jax.pure_callback(host, spec, *args, vmap_method=vmap_method)

        return f

    return Subject(
        id="pure_callback/minimal",
        order=27,
        label="pure_callback, minimal",
        role="minimal",
        mechanism="pure_callback",
        doc=f"jax.pure_callback(np_fn, spec, *args, vmap_method={vmap_method!r}) and nothing else.",
        build=build,
    )


def minimal_io(name: str, native: Callable[..., Any]) -> Subject:
    def build(wrap: Wrap) -> Callable[..., Any]:
        host = wrap(_host(name))

        def f(*args: Any) -> Any:
            return io_callback(host, jax.eval_shape(native, *args), *args, ordered=False)

        return f

    return Subject(
        id="io_callback/minimal",
        order=42,
        label="io_callback, minimal",
        role="minimal",
        mechanism="io_callback",
        doc="io_callback(np_fn, spec, *args) (unordered) and nothing else.",
        build=build,
    )


def minimal_debug(native: Callable[..., Any]) -> Subject:
    def build(wrap: Wrap) -> Callable[..., Any]:
        host = wrap(_noop)

        def f(*args: Any) -> Any:
            out = native(*args)
            jax.debug.callback(host, *args, out)
            return out

        return f

    return Subject(
        id="debug.callback/minimal",
        order=62,
        label="debug.callback, minimal",
        role="minimal",
        mechanism="debug.callback",
        doc="The native result, observed by jax.debug.callback(noop, *args, out).",
        build=build,
    )


def empty_pure(native: Callable[..., Any]) -> Subject:
    """pure_callback whose host function does no work: it returns a preallocated result.
    What is left is the round trip itself and the copies JAX makes of arguments and result."""

    def build(wrap: Wrap) -> Callable[..., Any]:
        def f(*args: Any) -> Any:
            spec = jax.eval_shape(native, *args)
            result = jax.tree.map(lambda s: np.zeros(s.shape, s.dtype), spec)
            host = wrap(lambda *a: result)
            return jax.pure_callback(host, spec, *args, vmap_method="expand_dims")

        return f

    return Subject(
        id="pure_callback/no_work",
        order=29,
        label="pure_callback, no host work",
        role="reference",
        mechanism="pure_callback",
        doc="pure_callback whose host function returns a preallocated result: the round trip "
        "and the copies, without the NumPy work.",
        build=build,
        checked=False,
    )


# OpenBLAS (NumPy's and SciPy's copies) starts its own threads. Inside a callback they
# compete with XLA's CPU thread pool for the same cores, and on a small machine the
# time of a BLAS-heavy host function (expm) becomes erratic. The benchmarks therefore
# run OpenBLAS on one thread (set for the session by `limit_blas`); the columns
# `*/blas-default` are measured with its default number of threads (set around the whole
# measurement of the case, not around each call: changing it costs time of its own).
_BLAS_SYMBOLS = (
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
)
_BLAS_DEFAULT: list[int] = []  # thread counts found when the session started


@functools.cache
def _openblas() -> tuple[tuple[Any, Any], ...]:
    """``(set, get)`` thread functions of every OpenBLAS loaded in this process."""
    import ctypes

    try:
        with open("/proc/self/maps", encoding="utf-8") as f:
            paths = {line.split()[-1] for line in f if "openblas" in line.lower()}
    except OSError:
        return ()
    out = []
    for path in sorted(paths):
        lib = ctypes.CDLL(path)
        for set_name, get_name in _BLAS_SYMBOLS:
            if hasattr(lib, set_name) and hasattr(lib, get_name):
                out.append((getattr(lib, set_name), getattr(lib, get_name)))
                break
    return tuple(out)


def limit_blas() -> None:
    """OpenBLAS on one thread from now on (the defaults are kept for `blas_default`)."""
    if not _BLAS_DEFAULT:
        _BLAS_DEFAULT.extend(get() for _, get in _openblas())
    for set_, _ in _openblas():
        set_(1)


def restore_blas() -> None:
    for (set_, _), n in zip(_openblas(), _BLAS_DEFAULT, strict=True):
        set_(n)


def blas_info() -> str:
    """What the data file records about BLAS threads."""
    if not _openblas():
        return "no OpenBLAS found: BLAS threads left as they were"
    default = max(_BLAS_DEFAULT or [get() for _, get in _openblas()])
    return f"OpenBLAS on 1 thread (its default here: {default})"


@contextlib.contextmanager
def blas_default() -> Iterator[None]:
    """OpenBLAS with its default threads while the block runs."""
    for (set_, _), n in zip(_openblas(), _BLAS_DEFAULT, strict=True):
        set_(n)
    try:
        yield
    finally:
        for set_, _ in _openblas():
            set_(1)


def minimal_pure_blas_default(name: str, native: Callable[..., Any]) -> Subject | None:
    """The minimal pure_callback form, measured with OpenBLAS's default threads."""
    if not _openblas():
        return None
    return dataclasses.replace(
        minimal_pure(name, native),
        id="pure_callback/blas-default",
        order=30,
        label="pure_callback, minimal, default BLAS threads",
        role="reference",
        doc="The minimal form, measured with OpenBLAS's default number of threads.",
        blas_default=True,
    )


def floor_blas_default(name: str) -> Subject | None:
    """The NumPy floor, measured with OpenBLAS's default threads."""
    if not _openblas():
        return None
    return dataclasses.replace(
        floor(name),
        id="floor/numpy-blas-default",
        order=1,
        label="NumPy floor, default BLAS threads",
        role="reference",
        doc="The NumPy floor, measured with OpenBLAS's default number of threads.",
        blas_default=True,
    )


# ------------------------------------------------------------------------------- the seeds


def _seed000(wrap: Wrap) -> Callable[..., Any]:
    # Seed 000, verbatim: the host function converts with np.array (a copy) and leaves
    # y a jax.Array, so `np.sin(x) * y` dispatches back into JAX inside the callback.
    def external_pure_python_computation(x: np.ndarray, y: float) -> np.ndarray:
        if isinstance(x, jax.Array):
            x = np.array(x)
        return np.sin(x) * y + 1.0

    host = wrap(external_pure_python_computation)

    def jax_function_using_callback(a: Any, b: Any) -> Any:
        output_shape_dtype = jax.ShapeDtypeStruct(a.shape, a.dtype)
        # the seed adds `+ a` to the result; left out so it computes sin_scale
        return jax.pure_callback(host, output_shape_dtype, a, b)

    return jax_function_using_callback


def _seed004(wrap: Wrap) -> Callable[..., Any]:
    # Seed 004 (the external callbacks guide), verbatim except `vectorized=True`, which
    # current JAX no longer accepts: its documented replacement is
    # vmap_method="legacy_vectorized".
    def jv(v: Any, z: Any) -> Any:
        v, z = jnp.asarray(v), jnp.asarray(z)
        assert jnp.issubdtype(v.dtype, jnp.integer)
        z = z.astype(jnp.result_type(float, z.dtype))
        _scipy_jv = wrap(lambda v, z: scipy.special.jv(v, z).astype(z.dtype))
        result_shape_dtype = jax.ShapeDtypeStruct(
            shape=jnp.broadcast_shapes(v.shape, z.shape), dtype=z.dtype
        )
        return jax.pure_callback(
            _scipy_jv, result_shape_dtype, v, z, vmap_method="legacy_vectorized"
        )

    jv = jax.custom_jvp(jv)

    @jv.defjvp
    def _jv_jvp(primals: Any, tangents: Any) -> Any:
        v, z = primals
        _, z_dot = tangents
        jv_minus_1, jv_plus_1 = jv(v - 1, z), jv(v + 1, z)
        djv_dz = jnp.where(v == 0, -jv_plus_1, 0.5 * (jv_minus_1 - jv_plus_1))
        return jv(v, z), z_dot * djv_dz

    return jv


SEEDS: dict[str, Subject] = {
    "sin_scale": Subject(
        id="seed/000",
        order=90,
        label="seed 000",
        role="seed",
        mechanism="pure_callback",
        doc="Seed 000's pure_callback: np.array(x) copy inside the callback, y left a jax.Array.",
        build=_seed000,
    ),
    "bessel_jv": Subject(
        id="seed/004",
        order=91,
        label="seed 004",
        role="seed",
        mechanism="pure_callback",
        doc="Seed 004's jv: pure_callback + custom_jvp, vectorized=True -> 'legacy_vectorized'.",
        build=_seed004,
    ),
}


# ------------------------------------------------------------------------------- patterns


@functools.cache
def variants() -> dict[str, Variant]:
    return {v.id: v for v in discover()}


def pattern(variant_id: str, name: str, **kwargs: Any) -> Subject:
    """The discovered implementation of ``name`` in ``variant_id``."""
    v = variants()[variant_id]
    impl = v.implementations[name]
    if kwargs:
        impl = functools.partial(impl, **kwargs)
    native = v.mechanism == "native"
    return Subject(
        id=v.id,
        label=v.label,
        role="native" if native else "pattern",
        mechanism=v.mechanism,
        doc=v.doc,
        build=lambda wrap: impl,
        module=None if native else v.modules.get(name),
        host=not native,
        order=v.order,
    )


def native_fn(name: str) -> Callable[..., Any]:
    return variants()["native/jax"].implementations[name]


def call_subjects(name: str) -> list[Subject]:
    """The columns of the per-call table for ``name``: every discovered variant that
    implements it (pure_callback's vmap_method variants only differ under vmap and are
    left to the vmap sweep), the minimal forms, the floor and the seed."""
    out = [floor(name)]
    for vid, v in variants().items():
        if name not in v.implementations or v.mechanism == "debug.print":
            continue
        if v.mechanism == "pure_callback" and vid.split("/", 1)[1] in (*VMAP_METHODS, "none"):
            continue
        out.append(pattern(vid, name))
        if vid == "pure_callback/default":
            out.append(minimal_pure(name, native_fn(name)))
        if vid == "io_callback/unordered":
            out.append(minimal_io(name, native_fn(name)))
        if vid == "debug.callback/unordered":
            out.append(minimal_debug(native_fn(name)))
    if name == "sin_scale":
        out.append(empty_pure(native_fn(name)))
    if name in BLAS_USERS:
        extra = (floor_blas_default(name), minimal_pure_blas_default(name, native_fn(name)))
        out += [s for s in extra if s]
    if name in SEEDS:
        out.append(SEEDS[name])
    return out


def vmap_subjects(name: str) -> list[Subject]:
    """The columns of the vmap sweep for ``name`` (functions of the *unbatched* arguments)."""
    default = pattern("pure_callback/default", name)
    own = getattr(default.module, "VMAP_METHOD", None)  # the default's method: same column
    out = [pattern("native/jax", name), default]
    out += [
        pattern(f"pure_callback/{m}", name)
        for m in VMAP_METHODS
        if f"pure_callback/{m}" in variants() and m != own
    ]
    if "io_callback/unordered" in variants():
        out.append(pattern("io_callback/unordered", name))
    if name in BLAS_USERS:
        out += [s for s in (minimal_pure_blas_default(name, native_fn(name)),) if s]
    if name == "bessel_jv":
        out.append(SEEDS[name])
    return out


def unbatched(name: str) -> Subject:
    """The default pattern called once on the stacked arguments: the same data, no vmap."""
    return dataclasses.replace(
        pattern("pure_callback/default", name),
        id="pure_callback/unbatched",
        order=28,
        label="pure_callback, one call on the stacked data",
        role="reference",
        doc="The default pattern called once, without vmap, on the stacked arguments.",
    )


# ---------------------------------------------------------------------------------- loops


def _noop_log(k: Any, x: Any) -> None:
    return None


def native_scan() -> Subject:
    def f(x0: Any) -> Any:
        return jax.lax.scan(lambda x, _: (catalog.log_step(x), None), x0, None, length=STEPS)[0]

    return Subject(
        id="native/jax",
        order=10,
        label="native jax.numpy",
        role="native",
        mechanism="native",
        doc="The same lax.scan with nothing sent to the host.",
        build=lambda wrap: f,
        host=False,
    )


def stacked(mechanism: str) -> Subject:
    """Collect every state in the scan, send the stack to the host once, log it there."""

    def on_host(xs: Any) -> None:
        xs = np.asarray(xs)
        for k in range(xs.shape[0]):
            _noop_log(k + 1, xs[k])

    def build(wrap: Wrap) -> Callable[..., Any]:
        host = wrap(on_host)

        def f(x0: Any) -> Any:
            def step(x: Any, _: Any) -> tuple[Any, Any]:
                x = catalog.log_step(x)
                return x, x

            x, xs = jax.lax.scan(step, x0, None, length=STEPS)
            if mechanism == "io_callback":
                io_callback(host, None, xs, ordered=True)
            else:
                jax.debug.callback(host, xs, ordered=True)
            return x

        return f

    return Subject(
        id=f"{mechanism}/stacked",
        order=43 if mechanism == "io_callback" else 63,
        label=f"{mechanism}, once on the stacked states",
        role="reference",
        mechanism=mechanism,
        doc=f"The scan stacks its states; one ordered {mechanism} logs all {STEPS} on the host.",
        build=build,
    )


def loop_subjects() -> list[tuple[str, Subject]]:
    """``(computation, subject)`` pairs of the loop suite (x0 -> STEPS steps)."""
    out: list[tuple[str, Subject]] = [("log_steps", native_scan())]
    ids = variants()
    for vid in (
        "io_callback/ordered",
        "io_callback/unordered",
        "debug.callback/ordered",
        "debug.callback/unordered",
        "debug.print/ordered",
    ):
        if vid in ids and "log_steps" in ids[vid].implementations:
            kw = {} if vid.startswith("debug.print") else {"log": _noop_log}
            s = pattern(vid, "log_steps", **kw)
            out.append(("log_steps", _steps(s, lambda impl: lambda x0: impl(x0, STEPS))))
    out += [("log_steps", stacked("io_callback")), ("log_steps", stacked("debug.callback"))]
    for vid in ("io_callback/ordered", "debug.callback/ordered", "debug.print/ordered"):
        if vid in ids and "progress" in ids[vid].implementations:
            kw = {} if vid.startswith("debug.print") else {"report": _noop_log}
            s = pattern(vid, "progress", **kw)
            out.append(("progress", _steps(s, lambda impl: lambda x0: impl(x0, STEPS, EVERY))))
    return out


def _steps(s: Subject, close: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Subject:
    build = s.build
    return dataclasses.replace(s, build=lambda wrap: close(build(wrap)))


# ----------------------------------------------------------------------------- host calls
# One counter for the whole session. The patterns' host functions (``on_host``, and
# ``on_host_vjp`` where a derivative rule has its own) are wrapped once, before anything
# is traced; the minimal forms and the seeds get the same wrapper through ``build``.
# Every callback column thus carries the same (sub-microsecond) counting layer, and a
# case compiles once: host calls are counted on the first call after compiling.

_COUNT = [0]
_INSTALLED: list[tuple[Any, str, Callable[..., Any]]] = []


def counted(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*a: Any, **k: Any) -> Any:
        _COUNT[0] += 1
        return fn(*a, **k)

    wrapper.__jaxcb_counted__ = True  # type: ignore[attr-defined]
    return wrapper


def install_counters() -> None:
    """Wrap every discovered pattern module's host functions (they are looked up at trace time)."""
    if _INSTALLED:
        return
    for v in variants().values():
        for module in v.modules.values():
            for name in dir(module):
                f = getattr(module, name)
                if (
                    name.startswith("on_host")
                    and callable(f)
                    and not hasattr(f, "__jaxcb_counted__")
                ):
                    setattr(module, name, counted(f))
                    _INSTALLED.append((module, name, f))
    jax.clear_caches()  # no trace made with the unwrapped functions may be reused


def uninstall_counters() -> None:
    while _INSTALLED:
        module, name, f = _INSTALLED.pop()
        setattr(module, name, f)
    jax.clear_caches()


def timed_call(
    subject: Subject, args: tuple[Any, ...], dev_args: tuple[Any, ...] | None = None
) -> tuple[Callable[[], Any], Any, int | None]:
    """``(call, result, host calls per call)``; ``call()`` runs once and blocks until the
    result is ready. The first call compiles; host calls are counted on the second.
    ``dev_args``: ``args`` already on the device (shared by the cases of a row)."""
    if not subject.jit:
        fn = subject.fn()
        np_args = tuple(np.asarray(a) for a in args)
        return (lambda: fn(*np_args)), fn(*np_args), None
    f = jax.jit(subject.build(counted))
    if dev_args is None:
        dev_args = tuple(jax.device_put(a) for a in args)

    def call() -> Any:
        return jax.block_until_ready(f(*dev_args))

    printed = io.StringIO()
    if subject.mechanism == "debug.print":  # prints a line per host call: swallow them
        loud = call

        def call() -> Any:
            with contextlib.redirect_stdout(printed):
                return loud()

    call()  # compiles
    jax.effects_barrier()
    _COUNT[0] = 0
    printed.seek(0)
    printed.truncate()
    out = call()
    jax.effects_barrier()
    if subject.mechanism == "debug.print":  # no on_host to wrap: count the reports printed
        return call, out, len(re.findall(r"^step \d+:", printed.getvalue(), re.MULTILINE))
    return call, out, (_COUNT[0] if subject.host else None)


def nbytes(args: tuple[Any, ...], out: Any) -> int:
    leaves = [*args, *jax.tree.leaves(out)]
    return int(sum(np.asarray(a).nbytes for a in leaves))
