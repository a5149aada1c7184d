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
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import jax

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import ProbeSpec, VariantSpec

# The observers: the public functions of the one module that holds them all, but its host
# function (a computation added there is in the rows with no edit here).
OBSERVERS = tuple(
    n
    for n in importlib.import_module("jaxcb_debug.observers").__all__
    if n not in ("Report", "on_host")
)
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


# Under the transforms of several devices only: elsewhere `partitioned` changes nothing.
PARALLEL = ("jit", "pmap", "shard_map", "sharded_jit")
PARALLEL_SCOPE = (
    "partitioned=True only changes how a sharded call reaches the host: this row is "
    "measured under jit and the transforms of several devices; the unordered row has the rest"
)
DOCS = {
    "debug.callback/unordered": "jax.debug.callback: observes values; returns nothing.",
    "debug.callback/ordered": "jax.debug.callback(ordered=True): observations keep program order.",
    "debug.callback/partitioned": (
        "jax.debug.callback(partitioned=True): under a sharded jit, one call per shard."
    ),
    "debug.print/ordered": (
        "jax.debug.print(fmt, ordered=True): formatted text on stdout, in program order."
    ),
    "debug.print/unordered": (
        "jax.debug.print(fmt): formatted text on stdout; the default, unordered."
    ),
    "debug.print/partitioned": (
        "jax.debug.print(fmt, partitioned=True): one line per shard under a sharded jit."
    ),
    "debug.log/unordered": "jax.debug.log(fmt): the same text as an INFO record of JAX's logger.",
}


def _row(
    vid: str,
    label: str,
    order: int,
    implementations: Mapping[str, Callable[..., Any]],
    modules: Mapping[str, Any],
    unsupported: Mapping[str, str],
    probe: ProbeSpec,
    missing: str | None = None,
    parallel: bool = False,
    bare: Mapping[str, Callable[..., Any]] | None = None,
) -> VariantSpec:
    """One row; ``missing``: why the installed JAX has nothing to measure (every computation
    of ``modules`` is then unsupported with that reason)."""
    spec: VariantSpec = {
        "id": vid,
        "mechanism": vid.split("/")[0],
        "label": label,
        "doc": DOCS[vid],
        "package": "jaxcb_debug",
        "order": order,
        "implementations": {} if missing else implementations,
        "modules": modules,
        "unsupported": dict(unsupported)
        | ({} if missing is None else dict.fromkeys(modules, missing)),
        "probe": probe,
    }
    if parallel:
        spec["transforms"], spec["scope"] = PARALLEL, PARALLEL_SCOPE
    if bare is not None:
        spec["bare"] = bare
    return spec


def variants() -> list[VariantSpec]:
    one = importlib.import_module("jaxcb_debug.observers")  # every observer: one module
    modules = dict.fromkeys(OBSERVERS, one) | {
        n: importlib.import_module(f"jaxcb_debug.{n}") for n in EFFECTS
    }
    printing = {n: modules[n] for n in EFFECTS}
    version = jax.__version__
    no_partitioned = (
        None if _has_partitioned() else f"jax.debug.callback has no partitioned= in JAX {version}"
    )
    no_print_partitioned = (
        None if _has_partitioned() else f"jax.debug.print has no partitioned= in JAX {version}"
    )
    no_log = None if hasattr(jax.debug, "log") else f"jax.debug.log is not in JAX {version}"

    def observers(**options: Any) -> dict[str, Callable[..., Any]]:
        return {n: functools.partial(getattr(m, n), **options) for n, m in modules.items()}

    def printers(form: str, **options: Any) -> dict[str, Callable[..., Any]]:
        return {
            n: functools.partial(getattr(m, f"{n}_{form}"), **options) for n, m in printing.items()
        }

    host = dict.fromkeys(modules, ("on_host",))
    bare: dict[str, Callable[..., Any]] = {"send": _bare_send, "noop": _bare_noop}
    printed, logged = PrintedSteps(printing), LoggedSteps(printing)
    return [
        _row(
            "debug.callback/unordered",
            "debug.callback, unordered",
            60,
            observers(ordered=False),
            modules,
            UNSUPPORTED,
            host,
            bare=bare,
        ),
        _row(
            "debug.callback/ordered",
            "debug.callback, ordered",
            61,
            observers(ordered=True),
            modules,
            UNSUPPORTED,
            host,
            bare=bare,
        ),
        _row(
            "debug.callback/partitioned",
            "debug.callback, partitioned",
            62,
            observers(ordered=False, partitioned=True),
            modules,
            UNSUPPORTED,
            host,
            missing=no_partitioned,
            parallel=True,
        ),
        _row(
            "debug.print/ordered",
            "debug.print, ordered",
            70,
            printers("print", ordered=True),
            printing,
            PRINT_UNSUPPORTED,
            printed,
        ),
        _row(
            "debug.print/unordered",
            "debug.print, unordered",
            71,
            printers("print", ordered=False),
            printing,
            PRINT_UNSUPPORTED,
            printed,
        ),
        _row(
            "debug.print/partitioned",
            "debug.print, partitioned",
            72,
            printers("print", ordered=False, partitioned=True),
            printing,
            PRINT_UNSUPPORTED,
            printed,
            missing=no_print_partitioned,
            parallel=True,
        ),
        _row(
            "debug.log/unordered",
            "debug.log",
            75,
            printers("log", ordered=False),
            printing,
            PRINT_UNSUPPORTED,
            logged,
            missing=no_log,
        ),
    ]
