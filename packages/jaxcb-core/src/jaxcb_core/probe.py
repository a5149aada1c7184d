"""The probe contract: how the host side of a mechanism variant is observed.

Every count of host calls in jaxcb — the matrix, the benchmarks, the package tests —
goes through this module. A variant's registry entry says how its host side is
observed with the key ``probe``, one of:

``None``
    nothing runs on the host (the native baseline): no host calls to count.
``{computation: ("on_host", "on_host_vjp", ...)}``
    the names of *every* host function of the computation's pattern module (the one in
    the variant's ``modules``): forward, backward and per-step. When the variant is built
    (discovery, before any case runs or traces), each of these module attributes is
    wrapped once, for good, in a :class:`Counted` function that reports every call to the
    observations open at that moment and to none otherwise. Pattern modules call their host
    functions by name, so what JAX traces, caches and calls is the wrapper; nothing is
    swapped while a case runs, and a program compiled before an observation began is
    counted as well.
an object with ``observe(computation)``
    a probe of the package's own, for a host side that is not a Python function of the
    module (a C++ kernel's call counter, the text ``jax.debug.print`` writes). It returns
    a context manager whose value has the attributes of :class:`Tally`: ``calls``, and
    optionally ``shapes`` and ``records``.

Mechanism packages implement this protocol without importing this module.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import pickle
import threading
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

__all__ = [
    "MAX_SHAPES",
    "Counted",
    "HostFunctions",
    "Observation",
    "Probe",
    "Tally",
    "counting",
    "make_probe",
    "observe",
    "type_str",
]

MAX_SHAPES = 8  # argument types kept per observation


class Observation(Protocol):
    """What a probe reports while (and after) a case runs."""

    @property
    def calls(self) -> int: ...


class Probe(Protocol):
    def observe(self, computation: str) -> contextlib.AbstractContextManager[Observation]: ...


@dataclasses.dataclass
class Tally:
    """Host calls seen, per host function, and the argument types they received.

    ``records`` is set by probes that see effect records themselves (a printed line per
    step): ``[(step, state or None), ...]``. It stays ``None`` for probes that only count.
    """

    calls: int = 0
    by_function: dict[str, int] = dataclasses.field(default_factory=dict)
    shapes: list[str] = dataclasses.field(default_factory=list)
    records: list[tuple[int, Any]] | None = None
    open: bool = True  # closed: a :func:`counting` wrapper passes calls on uncounted
    _lock: threading.Lock = dataclasses.field(
        default_factory=threading.Lock, repr=False, compare=False
    )

    def add(self, name: str, args: Sequence[Any]) -> None:
        with self._lock:  # host callbacks may run on several threads at once
            self.calls += 1
            self.by_function[name] = self.by_function.get(name, 0) + 1
            for a in args:
                if len(self.shapes) >= MAX_SHAPES:  # full: no type strings on the hot path
                    break
                s = type_str(a)
                if s is not None and s not in self.shapes:
                    self.shapes.append(s)


def type_str(a: Any) -> str | None:
    """``"float32[4,8]"`` for an array-like argument, ``None`` for anything else."""
    shape, dtype = getattr(a, "shape", None), getattr(a, "dtype", None)
    if shape is None or dtype is None:
        return None
    try:
        return _type_str(tuple(shape), dtype)
    except TypeError:  # an unhashable dtype or dimension: not cached
        return _type_str.__wrapped__(tuple(shape), dtype)


@functools.lru_cache(maxsize=1024)
def _type_str(shape: tuple[int, ...], dtype: Any) -> str:
    # cached: NumPy's ``dtype.name`` costs microseconds, once per distinct type here
    name = getattr(dtype, "name", str(dtype))
    return f"{name}[{','.join(str(s) for s in shape)}]"


def counting(fn: Callable[..., Any], tally: Tally, name: str | None = None) -> Callable[..., Any]:
    """``fn`` wrapped so that each call is added to ``tally`` under ``name`` while the
    tally is open (closed, a call costs one attribute test more, as a :class:`Counted`)."""
    key: str = name or str(getattr(fn, "__name__", "host"))

    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        if tally.open:
            tally.add(key, args)
        return fn(*args, **kwargs)

    return counted


class Counted:
    """A host function that reports each call to the tallies open at that moment.

    Installed once per module attribute (:meth:`install`) and never removed; with no
    observation open a call costs one attribute test more than the function itself.
    """

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.name = name
        self.tallies: list[Tally] = []  # the open observations, in the order they began
        self.home: tuple[str, str] | None = None  # (module, attribute) once installed

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        tallies = self.tallies
        if tallies:
            for tally in tuple(tallies):  # host calls may run on other threads
                tally.add(self.name, args)
        return self.fn(*args, **kwargs)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Pickled as the module attribute it is installed at: a host that unpickles it in
        this process (colocated_python sends functions pickled) calls this very wrapper, so
        its calls reach the observations open here."""
        if self.home is None:
            raise pickle.PicklingError(f"{self.name}: a Counted not installed cannot be pickled")
        return _installed, self.home

    @classmethod
    def install(cls, owner: Any, attr: str) -> Counted:
        """The counting wrapper of ``owner.attr``, put in place the first time it is asked."""
        current = getattr(owner, attr)
        if isinstance(current, cls):
            return current
        wrapper = cls(current, attr)
        if isinstance(owner, types.ModuleType):  # what a pickled copy is looked up by
            wrapper.home = (owner.__name__, attr)
        setattr(owner, attr, wrapper)
        return wrapper

    @contextlib.contextmanager
    def reporting_to(self, tally: Tally) -> Iterator[Tally]:
        self.tallies.append(tally)
        try:
            yield tally
        finally:
            self.tallies.remove(tally)


def _installed(module: str, attr: str) -> Any:
    """The :class:`Counted` installed at ``module.attr`` (how one is unpickled)."""
    return getattr(importlib.import_module(module), attr)


class HostFunctions:
    """The probe for host functions that are module attributes (the common case)."""

    def __init__(
        self, modules: Mapping[str, types.ModuleType], names: Mapping[str, Sequence[str]]
    ) -> None:
        for computation, attrs in names.items():
            module = modules.get(computation)
            if module is None:
                raise ValueError(f"probe names host functions of {computation!r} but no module")
            for attr in attrs:
                if not callable(getattr(module, attr, None)):
                    raise ValueError(f"probe: {module.__name__} has no host function {attr!r}")
        self.modules = dict(modules)
        self.names = {c: tuple(a) for c, a in names.items()}
        # wrapped now, when the variant is built: before anything is traced
        self.wrappers = {
            c: tuple(Counted.install(self.modules[c], a) for a in attrs)
            for c, attrs in self.names.items()
        }

    def functions(self, computation: str) -> tuple[str, ...]:
        return self.names.get(computation, ())

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[Tally]:
        tally = Tally()
        with contextlib.ExitStack() as stack:
            for wrapper in self.wrappers.get(computation, ()):
                stack.enter_context(wrapper.reporting_to(tally))
            yield tally


class _Nothing:
    """The probe of a variant with no host side: it observes nothing, ever."""

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[None]:
        yield None


def make_probe(spec: Any, modules: Mapping[str, types.ModuleType]) -> Probe | None:
    """The probe object for a registry's ``probe`` value (``None``: no host side)."""
    if spec is None:
        return None
    if callable(getattr(spec, "observe", None)):
        return spec
    if isinstance(spec, Mapping):
        return HostFunctions(modules, spec)
    raise TypeError(
        "probe must be None, {computation: (host function names)} or an object with "
        f"observe(computation), got {type(spec).__name__}"
    )


def observe(probe: Probe | None, computation: str) -> contextlib.AbstractContextManager[Any]:
    """``probe.observe(computation)``, or a context yielding ``None`` when there is no probe."""
    return _Nothing().observe(computation) if probe is None else probe.observe(computation)
