"""The probe of the ffi_call variants: handler invocations, read from the C++ counters.

Every handler counts its own calls in an atomic counter (`<Symbol>Calls()` in its `.cc`
file). Observing a computation reads the counters of all of its handlers (forward and
backward) when the block starts and again whenever `calls` is read, until the block ends.
It follows the probe contract of `jaxcb_core.probe` without importing it.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator, Mapping

from ._library import calls as _counter

__all__ = ["HandlerCalls", "KernelProbe"]


class HandlerCalls:
    """Handler calls since the observation began: `calls` in all, `by_function` per target."""

    def __init__(self, handlers: Mapping[str, str]) -> None:
        self._handlers = dict(handlers)
        self._start = {t: _counter(s) for t, s in self._handlers.items()}
        self._end: dict[str, int] | None = None

    def _now(self) -> dict[str, int]:
        return self._end if self._end is not None else self._read()

    def _read(self) -> dict[str, int]:
        return {t: _counter(s) - self._start[t] for t, s in self._handlers.items()}

    def stop(self) -> None:
        self._end = self._read()

    @property
    def by_function(self) -> dict[str, int]:
        return self._now()

    @property
    def calls(self) -> int:
        return sum(self._now().values())


class KernelProbe:
    """`observe(computation)` counts the handlers the computation's module registers."""

    def __init__(self, package: str = "jaxcb_ffi") -> None:
        self.package = package

    def handlers(self, computation: str) -> dict[str, str]:
        """`{FFI target: C++ symbol}` of every handler of `computation`."""
        try:
            module = importlib.import_module(f"{self.package}.{computation}")
        except ModuleNotFoundError:  # the private helpers (`_noop`), not catalog computations
            module = importlib.import_module(f"{self.package}._{computation}")
        return dict(module.HANDLERS)

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[HandlerCalls]:
        seen = HandlerCalls(self.handlers(computation))
        try:
            yield seen
        finally:
            seen.stop()
