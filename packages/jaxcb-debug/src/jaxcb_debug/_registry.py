"""The jax.debug rows of the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it tells the harness which function implements which
computation, and how to observe each row's host side.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import re
from collections.abc import Iterator
from typing import Any

import jax

OBSERVERS = ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")
EFFECTS = ("log_steps", "progress")
UNSUPPORTED = {
    "host_draw": "jax.debug.callback cannot return a value to the computation",
}
PRINT_UNSUPPORTED = {
    **UNSUPPORTED,
    **dict.fromkeys(
        OBSERVERS, "jax.debug.print formats text; observe values with jax.debug.callback"
    ),
}


class _Printed:
    """What the print rows wrote so far: one record ``(step, None)`` per matching line."""

    def __init__(self, buffer: io.StringIO, line: re.Pattern[str]) -> None:
        self._buffer, self._line = buffer, line

    @property
    def records(self) -> list[tuple[int, None]]:
        return [(int(m.group(1)), None) for m in self._line.finditer(self._buffer.getvalue())]

    @property
    def calls(self) -> int:
        return len(self.records)


class PrintedSteps:
    """The probe of the ``jax.debug.print`` rows: there is no host function of ours to
    count, only the text ``jax.debug.print`` writes to stdout. Each line the module's
    ``PRINT_FORMAT`` produces is one host call and one record (its step)."""

    def __init__(self, modules: dict[str, Any]) -> None:
        self._lines = {}
        for name, module in modules.items():
            head, _, tail = module.PRINT_FORMAT.partition("{k}")
            sep = tail.split("{", 1)[0]
            self._lines[name] = re.compile(rf"^{re.escape(head)}(-?\d+){re.escape(sep)}", re.M)

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[_Printed]:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            yield _Printed(buffer, self._lines[computation])


def _bare_send(host: Any, *args: Any, ordered: bool = False) -> None:
    """The minimal forms the benchmarks compare the observers with."""
    jax.debug.callback(host, *args, ordered=ordered)


def _bare_noop(x: Any) -> Any:
    jax.debug.callback(_ignore, x)
    return x


def _ignore(*args: Any) -> None:
    return None


def variants() -> list[dict[str, Any]]:
    modules = {n: importlib.import_module(f"jaxcb_debug.{n}") for n in OBSERVERS + EFFECTS}
    out: list[dict[str, Any]] = []
    for i, ordered in enumerate((False, True)):
        key = "ordered" if ordered else "unordered"
        out.append(
            {
                "id": f"debug.callback/{key}",
                "mechanism": "debug.callback",
                "label": f"debug.callback, {key}",
                "doc": (
                    "jax.debug.callback(ordered=True): observations keep program order."
                    if ordered
                    else "jax.debug.callback: observes values; returns nothing."
                ),
                "package": "jaxcb_debug",
                "order": 60 + i,
                "implementations": {
                    n: functools.partial(getattr(m, n), ordered=ordered) for n, m in modules.items()
                },
                "modules": modules,
                "unsupported": dict(UNSUPPORTED),
                "probe": dict.fromkeys(modules, ("on_host",)),
                "bare": {"send": _bare_send, "noop": _bare_noop},
            }
        )
    printing = {n: modules[n] for n in EFFECTS}
    out.append(
        {  # a dict[str, Any], like the others
            "id": "debug.print/ordered",
            "mechanism": "debug.print",
            "label": "debug.print",
            "doc": "jax.debug.print(fmt, ordered=True): formatted text on stdout.",
            "package": "jaxcb_debug",
            "order": 70,
            "implementations": {n: getattr(m, f"{n}_print") for n, m in printing.items()},
            "modules": printing,
            "unsupported": dict(PRINT_UNSUPPORTED),
            "probe": PrintedSteps(printing),
        }
    )
    return out
