"""The probe of the ffi_call variants: handler calls, counted by a shim in front of each.

The handlers a reader copies carry no counters. Building the package also builds the
counting shim, `lib_counting.so` (`_counting.cc`, installed beside the modules): 64 slots,
each an XLA FFI handler that adds one to its counter and passes the call frame on,
unchanged, to the handler behind it. Constructing a :class:`KernelProbe` (the registry
does, when the variants are discovered) wraps `jax.ffi.register_ffi_target` once: from
then on a CPU handler registered by the package (a target one of its modules names in
`HANDLERS`), by the module's own loader on a pattern's first use, is registered behind a
slot of its own; another package's registrations pass through untouched. Observing a
computation reads the slots of all of its handlers (forward and backward) when the block
starts and again whenever `calls` is read, until the block ends. The C++ logger (`log_steps`) writes its records to standard
error: observing it also reads the process's file descriptor 2 while the block runs, keeps
the logger's lines as the records (step, state), and passes every other line on.

A handler registered before the probe existed runs without a slot in front of it, and its
calls cannot be counted: observing its computation (a module whose `_registered` is set,
with no slot for its targets) raises `RuntimeError` naming it.
It follows the probe contract of `jaxcb_core.probe` without importing it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib
import importlib.util
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import jax
import numpy as np

__all__ = ["COUNTING", "HandlerCalls", "KernelProbe", "LoggedCalls", "counted_targets", "install"]

COUNTING = "lib_counting.so"

_lock = threading.Lock()
_slots: dict[str, int] = {}  # FFI target -> slot of the shim in front of its handler
_original: Callable[..., Any] | None = None  # jax.ffi.register_ffi_target before install()


@functools.cache
def _shim() -> ctypes.CDLL:
    """The counting library, from the package's folder (any of them: an editable install
    has two), beside the modules and their libraries."""
    package = importlib.import_module(__package__ or "jaxcb_ffi")
    places = [Path(where) for where in package.__path__]
    path = next((p / COUNTING for p in places if (p / COUNTING).is_file()), None)
    if path is None:
        raise RuntimeError(
            f"jaxcb_ffi: the probe's counting shim ({COUNTING}) is not installed in "
            f"{', '.join(map(str, places))}: reinstall jaxcb-ffi and read the build output."
        )
    lib = ctypes.CDLL(str(path))
    lib.JaxcbCountingShim.restype = ctypes.c_void_p
    lib.JaxcbCountingShim.argtypes = [ctypes.c_int, ctypes.c_void_p]
    lib.JaxcbCountingCalls.restype = ctypes.c_int64
    lib.JaxcbCountingCalls.argtypes = [ctypes.c_int]
    return lib


def _pointer(capsule: Any) -> int:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get(capsule, None))


def _behind_slot(target: str, capsule: Any) -> Any:
    """A capsule of the slot now in front of the handler in `capsule`."""
    lib = _shim()
    slot = _slots.get(target, len(_slots))
    if slot >= lib.JaxcbCountingSlots():
        raise RuntimeError(f"jaxcb_ffi probe: no counting slot left for FFI target {target!r}")
    shim = lib.JaxcbCountingShim(slot, _pointer(capsule))
    _slots[target] = slot
    return jax.ffi.pycapsule(shim)


def install() -> None:
    """Wrap `jax.ffi.register_ffi_target` so that CPU handlers get a counting slot (once)."""
    global _original
    with _lock:
        if _original is not None or importlib.util.find_spec("jax.ffi") is None:
            return
        _shim()  # a missing shim fails here, at discovery, not at a handler's first call
        original = jax.ffi.register_ffi_target

        @functools.wraps(original)
        def register_counted(name: str, fn: Any, platform: str = "cpu", *a: Any, **k: Any) -> Any:
            if platform == "cpu" and type(fn).__name__ == "PyCapsule" and name in _own_targets():
                with _lock:
                    fn = _behind_slot(name, fn)
            return original(name, fn, platform, *a, **k)

        jax.ffi.register_ffi_target = register_counted
        _original = original


@functools.cache
def _own_targets() -> frozenset[str]:
    """Every FFI target this package's modules register (their `HANDLERS`): another
    package's registrations pass through the same function and keep their slots free."""
    package = importlib.import_module(__package__ or "jaxcb_ffi")
    stems = {p.stem for where in package.__path__ for p in Path(where).glob("*.py")}  # editable: 2
    modules = [
        importlib.import_module(f"{package.__name__}.{stem}")
        for stem in sorted(stems - _NOT_PATTERNS)
    ]
    return frozenset(t for m in modules for t in getattr(m, "HANDLERS", ()))


_NOT_PATTERNS = frozenset({"__init__", "_probe", "_registry"})


def counted_targets() -> dict[str, int]:
    """`{FFI target: slot}` of every handler registered behind the shim so far."""
    return dict(_slots)


def _calls(target: str) -> int:
    slot = _slots.get(target)
    return 0 if slot is None else int(_shim().JaxcbCountingCalls(slot))


class HandlerCalls:
    """Handler calls since the observation began: `calls` in all, `by_function` per target."""

    def __init__(self, targets: Iterable[str]) -> None:
        self._targets = tuple(targets)
        self._start = {t: _calls(t) for t in self._targets}
        self._end: dict[str, int] | None = None

    def _now(self) -> dict[str, int]:
        return self._end if self._end is not None else self._read()

    def _read(self) -> dict[str, int]:
        return {t: _calls(t) - self._start[t] for t in self._targets}

    def stop(self) -> None:
        self._end = self._read()

    @property
    def by_function(self) -> dict[str, int]:
        return self._now()

    @property
    def calls(self) -> int:
        return sum(self._now().values())


_LINE = re.compile(r"^step (-?\d+) \(([\d,]*)\):((?: \S+)*)$", re.M)  # log_steps.cc


class LoggedCalls(HandlerCalls):
    """Handler calls, and the `(step, state)` records of the lines the C++ logger wrote."""

    def __init__(self, targets: Iterable[str], stderr: IO[bytes]) -> None:
        super().__init__(targets)
        self._stderr = stderr
        self._text: str | None = None

    def _written(self) -> str:
        """What standard error received so far (once stopped: all it received)."""
        if self._text is not None:
            return self._text
        self._stderr.seek(0)
        text = self._stderr.read().decode(errors="replace")
        self._stderr.seek(0, os.SEEK_END)
        return text

    def stop(self) -> None:
        super().stop()
        self._text = self._written()

    def others(self) -> str:
        """What the block wrote to standard error besides the logger's lines."""
        return _LINE.sub("", self._written()).strip("\n")

    @property
    def records(self) -> list[tuple[int, np.ndarray]]:
        out = []
        for m in _LINE.finditer(self._written()):
            shape = tuple(int(d) for d in m.group(2).split(",") if d)
            out.append((int(m.group(1)), np.array(m.group(3).split(), float).reshape(shape)))
        return out


@contextlib.contextmanager
def _fd2() -> Iterator[IO[bytes]]:
    """The process's standard error (file descriptor 2) into a temporary file, for the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as into:
        os.dup2(into.fileno(), 2)
        try:
            yield into
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class KernelProbe:
    """`observe(computation)` counts the handlers the computation's module registers."""

    def __init__(self, package: str = "jaxcb_ffi") -> None:
        self.package = package
        install()

    def handlers(self, computation: str) -> tuple[str, ...]:
        """The FFI targets of every handler of `computation`, each counted by a slot.

        Raises:
            RuntimeError: the module registered its handlers before the probe was installed.
        """
        try:
            module = importlib.import_module(f"{self.package}.{computation}")
        except ModuleNotFoundError:  # the private helpers (`_noop`), not catalog computations
            module = importlib.import_module(f"{self.package}._{computation}")
        targets = tuple(module.HANDLERS)
        uncounted = [
            t for t in targets if getattr(module, "_registered", False) and t not in _slots
        ]
        if uncounted:
            raise RuntimeError(
                f"jaxcb_ffi probe: FFI target {uncounted[0]!r} was registered before the "
                "counting shim was installed, so its calls cannot be counted: discover the "
                "variants (jaxcb_core.mechanisms.discover()) before calling the patterns"
            )
        return targets

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[HandlerCalls]:
        if computation != "log_steps":
            seen = HandlerCalls(self.handlers(computation))
            try:
                yield seen
            finally:
                seen.stop()
            return
        logged: LoggedCalls | None = None
        try:
            with _fd2() as stderr:
                logged = LoggedCalls(self.handlers(computation), stderr)
                try:
                    yield logged
                finally:
                    logged.stop()
        finally:
            if logged is not None and logged.others():  # XLA's warnings, say: not ours to keep
                print(logged.others(), file=sys.stderr)
