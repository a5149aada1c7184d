"""The jax.debug rows of the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it tells the harness which function implements which
computation, and how to observe each row's host side.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import io
import logging
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


class _Logged:
    """What the log rows logged so far: one record ``(step, None)`` per matching message."""

    def __init__(self, messages: list[str], line: re.Pattern[str]) -> None:
        self._messages, self._line = messages, line

    @property
    def records(self) -> list[tuple[int, None]]:
        return [(int(m.group(1)), None) for msg in self._messages if (m := self._line.match(msg))]

    @property
    def calls(self) -> int:
        return len(self.records)


class _Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.INFO)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record.getMessage())


class LoggedSteps(PrintedSteps):
    """The probe of the ``jax.debug.log`` rows: the INFO records of JAX's debugging logger
    (``jax._src.debugging``), one per step, in the format the module's ``PRINT_FORMAT``."""

    LOGGER = "jax._src.debugging"

    @contextlib.contextmanager
    def observe(self, computation: str) -> Iterator[_Logged]:  # type: ignore[override]
        messages: list[str] = []
        handler = _Collect(messages)
        logger = logging.getLogger(self.LOGGER)
        logger.addHandler(handler)
        try:
            yield _Logged(messages, self._lines[computation])
        finally:
            logger.removeHandler(handler)


def _bare_send(host: Any, *args: Any, ordered: bool = False) -> None:
    """The minimal forms the benchmarks compare the observers with."""
    jax.debug.callback(host, *args, ordered=ordered)


def _bare_noop(x: Any) -> Any:
    jax.debug.callback(_ignore, x)
    return x


def _ignore(*args: Any) -> None:
    return None


def _has_partitioned() -> bool:
    return "partitioned" in inspect.signature(jax.debug.callback).parameters


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
    # Under the transforms of several devices only: elsewhere `partitioned` changes nothing.
    parallel = ("jit", "pmap", "shard_map", "sharded_jit")
    scope = (
        "partitioned=True only changes how a sharded call reaches the host: this row is "
        "measured under jit and the transforms of several devices; the unordered row has the rest"
    )
    out.append(
        {
            "id": "debug.callback/partitioned",
            "mechanism": "debug.callback",
            "label": "debug.callback, partitioned",
            "doc": "jax.debug.callback(partitioned=True): under a sharded jit, one call per shard.",
            "package": "jaxcb_debug",
            "order": 62,
            "implementations": {
                n: functools.partial(getattr(m, n), ordered=False, partitioned=True)
                for n, m in modules.items()
            },
            "modules": modules,
            "unsupported": dict(UNSUPPORTED),
            "probe": dict.fromkeys(modules, ("on_host",)),
            "transforms": parallel,
            "scope": scope,
        }
    )
    if not _has_partitioned():  # JAX 0.4.30
        out[-1]["implementations"] = {}
        out[-1]["unsupported"] = dict(UNSUPPORTED) | dict.fromkeys(
            modules, f"jax.debug.callback has no partitioned= in JAX {jax.__version__}"
        )
    printing = {n: modules[n] for n in EFFECTS}
    rows = (
        ("debug.print/ordered", "debug.print, ordered", 70, "print", {"ordered": True}, None),
        ("debug.print/unordered", "debug.print, unordered", 71, "print", {"ordered": False}, None),
        (
            "debug.print/partitioned",
            "debug.print, partitioned",
            72,
            "print",
            {"ordered": False, "partitioned": True},
            parallel,
        ),
        ("debug.log/unordered", "debug.log", 75, "log", {"ordered": False}, None),
    )
    docs = {
        "debug.print/ordered": "jax.debug.print(fmt, ordered=True): formatted text on stdout, in program order.",
        "debug.print/unordered": "jax.debug.print(fmt): formatted text on stdout; the default, unordered.",
        "debug.print/partitioned": "jax.debug.print(fmt, partitioned=True): one line per shard under a sharded jit.",
        "debug.log/unordered": "jax.debug.log(fmt): the same text as an INFO record of JAX's logger.",
    }
    for vid, label, order, form, options, transforms in rows:
        has_log = hasattr(jax.debug, "log")
        row: dict[str, Any] = {
            "id": vid,
            "mechanism": vid.split("/")[0],
            "label": label,
            "doc": docs[vid],
            "package": "jaxcb_debug",
            "order": order,
            "implementations": {
                n: functools.partial(getattr(m, f"{n}_{form}"), **options)
                for n, m in printing.items()
            },
            "modules": printing,
            "unsupported": dict(PRINT_UNSUPPORTED),
            "probe": LoggedSteps(printing) if form == "log" else PrintedSteps(printing),
        }
        if transforms is not None:
            row["transforms"] = transforms
            row["scope"] = scope
        if form == "log" and not has_log:
            row["implementations"] = {}
            row["unsupported"] |= dict.fromkeys(
                printing, f"jax.debug.log is not in JAX {jax.__version__}"
            )
        if options.get("partitioned") and not _has_partitioned():
            row["implementations"] = {}
            row["unsupported"] |= dict.fromkeys(
                printing, f"jax.debug.print has no partitioned= in JAX {jax.__version__}"
            )
        out.append(row)
    return out
