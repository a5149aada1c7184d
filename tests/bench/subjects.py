"""The columns of the benchmark tables, all derived from the catalog and the registries.

- the **floor**: the catalog's NumPy/SciPy function (``Computation.numpy``) called from
  Python on NumPy arrays, and where NumPy can, writing into a preallocated array
  (``numpy_into``). No callback can beat it.
- **native**: the variants whose probe says nothing runs on the host.
- the **patterns**: every discovered variant that reaches the host.
- each mechanism's **minimal forms**, from its registry's ``bare`` entry: ``call`` (the bare
  callback running the floor), ``send`` (a bare observer of the native result) and
  ``noop`` (one round trip doing no work: the fixed cost).
- **references** derived from those: the minimal ``call`` with OpenBLAS's default
  threads, one ``send`` of a scan's stacked states, a pattern called once on the stacked
  data instead of under ``vmap``, a ``noop`` on every step of a scan.
- the **seeds'** own code (``seeds.py``).

A subject's host calls are counted through ``jaxcb_core.probe`` only: patterns through
their registry's probe, the other columns by the same counting wrapper around the host
function they build.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np

from jaxcb_core import catalog
from jaxcb_core.mechanisms import Variant, discover
from jaxcb_core.probe import Tally, counting, observe

DTYPE = np.dtype(np.float32)
STEPS = 1000  # lax.scan length in the loop suite
EVERY = 100  # the throttled report interval
BLAS_USERS = ("expm",)  # host code that calls a multi-threaded BLAS
JIT_NOTE = " Called under jax.jit."  # the description of a row's jitted form adds this

Build = Callable[[Tally], Callable[..., Any]]


@dataclasses.dataclass(frozen=True)
class Subject:
    """One column of a benchmark table.

    ``build(tally)`` returns the function to time; a subject that builds its own host
    function wraps it with ``counting(host, tally)``. ``observe()`` is the probe
    context for the patterns (their registry's probe); otherwise a fresh ``Tally``.
    """

    id: str
    label: str
    role: str  # floor | native | pattern | minimal | seed | reference
    mechanism: str
    form: str  # pattern | numpy | into | call | send | noop | blas-default | stacked | ...
    doc: str
    build: Build
    order: int = 50
    of: str | None = None  # the column this one is a form of
    variant: Variant | None = None
    computation: str | None = None
    host: bool = True  # False: nothing runs on the host (native, the floor)
    counted: bool = True  # False: its host side is the registry's own and cannot be counted
    jit: bool = True  # False: plain Python on NumPy arrays (the floor)
    checked: bool = True  # False: the result is not the computation's
    blas_default: bool = False
    #: True: the jitted function donates its first argument, and each timed call is given
    #: the previous call's result in its place (an in-place form: the output aliases it)
    donate: bool = False
    #: what each timed call does with the jitted function's result on the host (checkify's
    #: ``err.throw()``), returning the computation's result; part of the timed call
    finish: Callable[[Any], Any] | None = None

    def meta(self) -> dict[str, Any]:
        keys = ("id", "label", "role", "mechanism", "form", "doc", "order", "of")
        return {k: getattr(self, k) for k in keys}

    @contextlib.contextmanager
    def observe(self) -> Iterator[Tally | Any | None]:
        if self.variant is not None and self.computation is not None:
            with observe(self.variant.probe, self.computation) as seen:
                yield seen
        elif self.host and self.counted:
            tally = Tally()
            try:
                yield tally
            finally:
                tally.open = False  # timed calls, made after this, pass uncounted as a pattern's
        else:
            yield None

    def map(
        self, transform: Callable[[Callable[..., Any]], Callable[..., Any]], **kw: Any
    ) -> Subject:
        """The same subject with ``transform`` applied to its function (vmap, grad)."""
        build = self.build
        return dataclasses.replace(self, build=lambda t: transform(build(t)), **kw)


@functools.cache
def variants() -> tuple[Variant, ...]:
    return tuple(discover())


def native(name: str) -> Callable[..., Any]:
    """The host-free implementation of ``name`` (the baseline)."""
    return next(
        v for v in variants() if not v.reaches_host and name in v.implementations
    ).implementations[name]


def _spec(name: str, args: tuple[Any, ...]) -> Any:
    return jax.eval_shape(native(name), *args)


def _bare(form: str) -> list[tuple[Variant, Callable[..., Any]]]:
    """One registry per mechanism: ``(its first variant, bare form)`` where it has one."""
    seen: dict[str, tuple[Variant, Callable[..., Any]]] = {}
    for v in variants():
        if form in v.bare:
            seen.setdefault(v.mechanism, (v, v.bare[form]))
    return list(seen.values())


# ---------------------------------------------------------------------------- floors


def floor(name: str) -> Subject:
    fn = catalog.by_name(name).numpy
    assert fn is not None
    return Subject(
        id="floor/numpy",
        label="NumPy floor",
        role="floor",
        mechanism="numpy",
        form="numpy",
        doc="The catalog's NumPy/SciPy function called directly from Python on NumPy arrays.",
        build=lambda t: fn,
        order=0,
        host=False,
        jit=False,
    )


def floor_into(name: str) -> Subject | None:
    into = catalog.by_name(name).numpy_into
    if into is None:
        return None

    def build(t: Tally) -> Callable[..., Any]:
        out: dict[int, np.ndarray] = {}

        def f(*args: Any) -> np.ndarray:
            shape = np.broadcast_shapes(*(np.shape(a) for a in args))
            buf = out.get(0)
            if buf is None or buf.shape != shape:
                buf = out[0] = np.empty(
                    shape, np.result_type(*[a for a in args if np.asarray(a).dtype.kind == "f"])
                )
            into(buf, *args)
            return buf

        return f

    return Subject(
        id="floor/numpy-into",
        label="NumPy floor, preallocated output",
        role="floor",
        mechanism="numpy",
        form="into",
        doc="The same NumPy/SciPy function writing into an array allocated once (out=).",
        build=build,
        order=1,
        of="floor/numpy",
        host=False,
        jit=False,
    )


# ------------------------------------------------------------------------ variants


def pattern(v: Variant, name: str, **kwargs: Any) -> Subject:
    impl = v.implementations[name]
    if kwargs:
        impl = functools.partial(impl, **kwargs)
    return Subject(
        id=v.id,
        label=v.label,
        role="pattern" if v.reaches_host else "native",
        mechanism=v.mechanism,
        form="pattern",
        doc=v.doc,
        build=lambda t: impl,
        order=v.order,
        variant=v,
        computation=name,
        host=v.reaches_host,
        jit=not v.eager_only,  # colocated_python: called as it must be, outside jax.jit
    )


def patterns(name: str, transform: str) -> list[Subject]:
    """Every variant implementing ``name`` that is measured under ``transform`` (one that
    runs outside jit only in the calls suite, ``transform="jit"``, where it is called as is)."""
    return [
        pattern(v, name)
        for v in variants()
        if name in v.implementations
        and v.measured_under(transform)
        and (transform == "jit" or not v.eager_only)
    ]


def first_patterns(name: str) -> list[Subject]:
    """Each package's first variant that reaches the host (its own column)."""
    seen: dict[str, Variant] = {}
    for v in variants():
        if v.reaches_host and name in v.implementations and not v.eager_only:
            seen.setdefault(v.package, v)
    return [pattern(v, name) for v in seen.values()]


# ------------------------------------------------------------------- minimal forms


def minimal_call(name: str) -> list[Subject]:
    """Each mechanism's bare ``call`` running the floor on the host."""
    comp = catalog.by_name(name)
    assert comp.numpy is not None
    fn = comp.numpy
    out = []
    for v, call in _bare("call"):
        for ordered in _orderings(v.mechanism):

            def build(t: Tally, call: Any = call, ordered: bool = ordered) -> Callable[..., Any]:
                kw = _ordered_kw(ordered)
                host = counting(lambda *a: fn(*(np.asarray(x) for x in a)), t, "host")
                return lambda *args: call(host, _spec(name, args), *args, **kw)

            what = f"The bare {v.mechanism} running the NumPy floor on the host, nothing else"
            out.append(_minimal(v, ordered, "call", what, build))
    return out


def minimal_in_place(name: str) -> list[Subject]:
    """Each mechanism's bare ``call_in_place``: the NumPy floor's ``out=`` form writing
    into the output buffer, which aliases the donated first argument (no fresh output)."""
    into = catalog.by_name(name).numpy_into
    if into is None:
        return []
    out = []
    for v, call in _bare("call_in_place"):

        def build(t: Tally, call: Any = call) -> Callable[..., Any]:
            host = counting(into, t, "host")
            return lambda *args: call(host, _spec(name, args), *args)

        plain = f"{v.mechanism}/minimal"
        out.append(
            Subject(
                id=f"{plain}-in-place",
                label=f"{v.mechanism}, minimal, in place",
                role="minimal",
                mechanism=v.mechanism,
                form="call-in-place",
                doc=f"The bare {v.mechanism} running the NumPy floor with out= into its output "
                "buffer, which aliases its first argument (input_output_aliases), donated: "
                "each call is given the previous call's result, so XLA allocates no fresh output.",
                build=build,
                order=v.order + 7,
                of=plain,
                donate=True,
            )
        )
    return out


def minimal_send(name: str) -> list[Subject]:
    """For mechanisms that only observe: the native result, observed by a bare ``send``."""
    calls = {v.mechanism for v, _ in _bare("call")}
    out = []
    for v, send in _bare("send"):
        if v.mechanism in calls:
            continue
        for ordered in _orderings(v.mechanism):

            def build(t: Tally, send: Any = send, ordered: bool = ordered) -> Callable[..., Any]:
                kw = _ordered_kw(ordered)
                host = counting(lambda *a: None, t, "host")

                def f(*args: Any) -> Any:
                    result = native(name)(*args)
                    send(host, *args, *jax.tree.leaves(result), **kw)
                    return result

                return f

            what = f"The native result, observed by a bare {v.mechanism} of a no-op"
            out.append(_minimal(v, ordered, "send", what, build))
    return out


def _orderings(mechanism: str) -> tuple[bool, ...]:
    """``(False, True)`` where the mechanism has an ordered row: its minimal form is then
    measured both ways, so an ordered pattern is compared with an ordered bare call."""
    ordered = any(v.mechanism == mechanism and v.id.endswith("/ordered") for v in variants())
    return (False, True) if ordered else (False,)


def _ordered_kw(ordered: bool) -> dict[str, Any]:
    return {"ordered": True} if ordered else {}


def _minimal(v: Variant, ordered: bool, form: str, what: str, build: Build) -> Subject:
    """A minimal-form column: ``{mechanism}/minimal``, or ``…/minimal-ordered`` (a form of it)."""
    plain = f"{v.mechanism}/minimal"
    return Subject(
        id=plain + ("-ordered" if ordered else ""),
        label=f"{v.mechanism}, minimal" + (", ordered" if ordered else ""),
        role="minimal",
        mechanism=v.mechanism,
        form=form,
        doc=what + (" (ordered=True)." if ordered else "."),
        build=build,
        order=v.order + 7,
        of=plain if ordered else None,
    )


def noops() -> list[Subject]:
    """The dispatch floor (a jitted native no-op) and each mechanism's bare round trip."""
    out = [
        Subject(
            id="native/noop",
            label="native no-op",
            role="native",
            mechanism="native",
            form="noop",
            doc="jax.jit of a function returning its argument: the dispatch floor.",
            build=lambda t: lambda x, *rest: x,
            order=11,
            host=False,
            checked=False,
        )
    ]
    for v, noop in _bare("noop"):
        out.append(
            Subject(
                id=f"{v.mechanism}/noop",
                label=f"{v.mechanism}, no-op",
                role="minimal",
                mechanism=v.mechanism,
                form="noop",
                doc=f"One {v.mechanism} round trip that does no work (the registry's bare noop).",
                build=lambda t, noop=noop: lambda x, *rest: noop(x),
                order=v.order + 8,
                checked=False,
                counted=False,
            )
        )
    return out


def eager(subject: Subject) -> Subject:
    """``subject`` called without ``jax.jit``, on NumPy arguments, as at the prompt."""
    return dataclasses.replace(subject, jit=False)


def jitted(subject: Subject) -> Subject:
    """The same call jitted: the reference an eager call is compared with."""
    return dataclasses.replace(
        subject,
        id=f"{subject.id}/jit",
        label=f"{subject.label}, jitted",
        role="reference",
        form="jitted",
        doc=f"{subject.doc}{JIT_NOTE}",
        of=subject.id,
    )


def blas_default(subject: Subject) -> Subject:
    """``subject`` measured with OpenBLAS's default number of threads."""
    return dataclasses.replace(
        subject,
        id=f"{subject.id}-blas-default",
        label=f"{subject.label}, default BLAS threads",
        role="reference",
        form="blas-default",
        doc=f"{subject.doc} Measured with OpenBLAS's default number of threads.",
        order=subject.order + 1,
        of=subject.id,
        blas_default=True,
    )


def unbatched(subject: Subject) -> Subject:
    """``subject`` called once, without vmap, on the stacked data."""
    return dataclasses.replace(
        subject,
        id=f"{subject.id}/unbatched",
        label=f"{subject.label}, one call on the stacked data",
        role="reference",
        form="unbatched",
        doc="The pattern called once, without vmap, on the stacked arguments.",
        order=subject.order,
        of=subject.id,
    )


# ---------------------------------------------------------------------------- loops


def _noop_log(k: Any, x: Any) -> None:
    return None


def _scan(step: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x0: jax.lax.scan(lambda x, _: (step(x), None), x0, None, length=STEPS)[0]


def loop_subjects() -> list[tuple[str, Subject]]:
    """``(computation, subject)`` of the loop suite: ``x0 -> STEPS`` steps of ``log_step``."""
    out: list[tuple[str, Subject]] = [
        (
            "log_steps",
            Subject(
                # not native/jax: that id is the native row of the registries, described
                # as the computation itself (a file keeps one description per column)
                id="native/scan",
                label="native lax.scan",
                role="native",
                mechanism="native",
                form="scan",
                doc="The same lax.scan with nothing sent to the host.",
                build=lambda t: _scan(catalog.log_step),
                order=10,
                host=False,
            ),
        )
    ]
    for name, extra in (("log_steps", (STEPS,)), ("progress", (STEPS, EVERY))):
        comp = catalog.by_name(name)
        for v in variants():
            if not v.reaches_host or name not in v.implementations:
                continue
            kw = {comp.sink: _noop_log} if comp.sink and v.takes(name, comp.sink) else {}
            s = pattern(v, name, **kw)
            out.append((name, s.map(lambda f, extra=extra: lambda x0: f(x0, *extra))))
    for v, noop in _bare("noop"):
        out.append(
            (
                "log_steps",
                Subject(
                    id=f"{v.mechanism}/noop-per-step",
                    label=f"{v.mechanism}, no-op on every step",
                    role="reference",
                    mechanism=v.mechanism,
                    form="noop-per-step",
                    doc=f"Each scan step passes its state through one bare {v.mechanism} no-op.",
                    build=lambda t, noop=noop: _scan(lambda x: noop(catalog.log_step(x))),
                    order=v.order + 8,
                    checked=False,  # a no-op promises the shape of x, not its values
                    counted=False,
                ),
            )
        )
    for v, send in _bare("send"):

        def build(t: Tally, send: Any = send) -> Callable[..., Any]:
            host = counting(lambda xs: None, t, "host")

            def f(x0: Any) -> Any:
                def step(x: Any, _: Any) -> tuple[Any, Any]:
                    x = catalog.log_step(x)
                    return x, x

                x, xs = jax.lax.scan(step, x0, None, length=STEPS)
                send(host, xs, ordered=True)
                return x

            return f

        out.append(
            (
                "log_steps",
                Subject(
                    id=f"{v.mechanism}/stacked",
                    label=f"{v.mechanism}, once on the stacked states",
                    role="reference",
                    mechanism=v.mechanism,
                    form="stacked",
                    doc=f"The scan stacks its states; one ordered {v.mechanism} sends all "
                    f"{STEPS} to the host.",
                    build=build,
                    order=v.order + 9,
                ),
            )
        )
    return out
