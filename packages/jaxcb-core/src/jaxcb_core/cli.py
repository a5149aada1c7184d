"""The ``jaxcb`` command: the catalog, a smoke run, and the support matrix in the terminal.

jaxcb catalog                      the computations and the installed mechanism variants
jaxcb smoke                        run every implementation once under jit, check it
jaxcb matrix [-m M] [-c C] [-t T]  run (part of) the matrix and print it
jaxcb matrix --write               ... and write docs/data/matrix/<jax>-<platform>-<n>.json
jaxcb matrix --check               ... and compare with the committed file (exit 1 on change)
jaxcb matrix --show FILE           print a committed file without running anything
jaxcb matrix --processes 2         the multi-process matrix: 2 processes × 2 CPU devices
jaxcb check PATH...                find code that a JAX upgrade breaks (no JAX needed)

`jaxcb COMMAND --help` describes one command, with examples.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .text import SYMBOL, check, details, render

if TYPE_CHECKING:
    from rich.console import Console

    from .schema import Cell


def _cmd_catalog(args: argparse.Namespace) -> int:
    from .catalog import CATALOG
    from .mechanisms import discover

    print("Computations")
    for c in CATALOG:
        print(f"  {c.signature:<36} {c.kind:<7} {c.summary}")
    print("\nMechanism variants (installed)")
    for v in discover():
        done = ", ".join(sorted(v.implementations)) or "-"
        print(f"  {v.id:<32} {v.package}")
        print(
            textwrap.fill(
                done, width=78, initial_indent="      implements: ", subsequent_indent=" " * 18
            )
        )
        for name, why in sorted(v.unsupported.items()):
            print(
                textwrap.fill(
                    f"{name}: {why}",
                    width=78,
                    initial_indent="      cannot: ",
                    subsequent_indent=" " * 14,
                )
            )
    return 0


def _cmd_smoke(args: argparse.Namespace) -> int:
    from .catalog import CATALOG
    from .matrix.cell import run_cell
    from .matrix.transforms import by_id
    from .mechanisms import discover

    jit = by_id("jit")
    failed = 0
    for v in discover():
        for c in CATALOG:
            cell = run_cell(v, c, jit)
            if cell.status == "n/a":
                continue
            mark = SYMBOL[cell.status]
            detail = cell.reason or cell.error or ""
            calls = "" if cell.host_calls is None else f"  host calls: {cell.host_calls}"
            print(f"{mark} {v.id:<32} {c.name:<11}{calls}  {detail}"[:160])
            failed += cell.status != "ok"
    print(
        f"\n{failed} implementation(s) not ok under jit"
        if failed
        else "\nall implementations ok under jit"
    )
    return 1 if failed else 0


def _cmd_check(args: argparse.Namespace) -> int:
    from jaxcb_check import checker  # the standard library only: never imports JAX

    return checker.run(args.paths, args.format, args.select, args.ignore)


def _count_cells(
    mechanisms: Sequence[str] | None,
    computations: Sequence[str] | None,
    transforms: Sequence[str] | None,
) -> int:
    """How many cells ``jaxcb matrix`` with these selections runs (the bar's total)."""
    from .catalog import CATALOG
    from .matrix.run import select
    from .matrix.transforms import TRANSFORMS
    from .mechanisms import discover

    return (
        len(select(discover(), mechanisms, "id"))
        * len(select(CATALOG, computations, "name"))
        * len(select(TRANSFORMS, transforms, "id"))
    )


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


@contextlib.contextmanager
def progress_bar(
    total: int, *, verbose: bool = False, console: Console | None = None
) -> Iterator[Callable[[Cell], None]]:
    """A progress bar on stderr for ``total`` cells: count, rate, elapsed time and ETA.

    Yields the callback the matrix runner calls once per finished cell. Where stderr is
    not a terminal (a pipe, a log file, CI) it draws nothing; ``verbose`` then still
    prints one line per cell.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = console or _stderr_console()

    def line(cell: Cell) -> str:
        return f"{SYMBOL[cell.status]} {cell.variant} | {cell.computation} | {cell.transform}"

    if not console.is_terminal:
        yield (lambda cell: print(line(cell), file=sys.stderr)) if verbose else (lambda cell: None)
        return
    bar = Progress(
        TextColumn("[bold]matrix"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    task = bar.add_task("cells", total=total, rate="– cells/s")

    def tick(cell: Cell) -> None:
        bar.advance(task)
        speed = bar.tasks[0].speed
        bar.update(task, rate=f"{speed:.1f} cells/s" if speed else "– cells/s")
        if verbose:
            bar.console.print(line(cell), markup=False, highlight=False)

    with bar:
        yield tick


def _cmd_matrix(args: argparse.Namespace) -> int:
    from . import matrix
    from .schema import dump, load_matrix

    width = shutil.get_terminal_size((80, 24)).columns
    if args.show:
        data = load_matrix(Path(args.show))
        print(render(data, width))
        if args.details:
            print("\n" + details(data, width))
        return 0
    if args.processes is not None:
        from .distributed.cli import run

        return run(args)

    from .environment import use_cpu_devices

    use_cpu_devices(args.devices)

    total = _count_cells(args.mechanism, args.computation, args.transform)
    with progress_bar(total, verbose=args.verbose) as tick:
        result = matrix.run_matrix(
            args.mechanism, args.computation, args.transform, progress=tick, workers=args.jobs
        )
    print(render(result, width))
    if args.details:
        print("\n" + details(result, width))
    print(f"\n{len(result.cells)} cells in {result.environment.duration_s} s")
    path = Path(args.output) if args.output else matrix.data_path(result.environment)
    partial = bool(args.mechanism or args.computation or args.transform)
    if args.write:
        if partial:
            print("refusing to --write a partial matrix: drop -m/-c/-t", file=sys.stderr)
            return 2
        dump(result, path)
        print(f"wrote {path}")
    if args.check:
        return check(result.cells, path, "`jaxcb matrix --write`")
    return 0


EXAMPLES = {
    "jaxcb": """\
examples:
  jaxcb catalog                            what is installed
  jaxcb matrix -m pure_callback -t vmap    one mechanism under one transform
  jaxcb matrix --write                     measure everything, write the data file
  jaxcb check src/                         find code a JAX upgrade breaks""",
    "catalog": """\
example:
  jaxcb catalog          the computations, then each variant with what it implements""",
    "smoke": """\
example:
  jaxcb smoke            one jit call of every implementation; exit 1 if one is not ok""",
    "matrix": """\
examples:
  jaxcb matrix -m pure_callback -t vmap      pure_callback's variants under vmap
  jaxcb matrix -c expm -t grad --details     why cells fail, for one computation
  jaxcb matrix --write                       everything; writes docs/data/matrix/...
  jaxcb matrix --check                       compare with the committed file
  jaxcb matrix --show docs/data/matrix/0.4.30-cpu-4.json
                                             print a committed file, run nothing
  jaxcb matrix --processes 2 --write         2 processes × 2 devices joined by
                                             jax.distributed; writes ...-cpu-2x2.json""",
}


def main(argv: Sequence[str] | None = None) -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="jaxcb", description=__doc__, epilog=EXAMPLES["jaxcb"], formatter_class=raw
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("catalog", "list computations and installed mechanism variants"),
        ("smoke", "run every implementation once under jit"),
    ):
        sub.add_parser(
            name,
            help=text,
            description=text[0].upper() + text[1:] + ".",
            epilog=EXAMPLES[name],
            formatter_class=raw,
        )
    m = sub.add_parser(
        "matrix",
        help="run the support matrix",
        description="Run (part of) the support matrix on the installed JAX and print it. On a\n"
        "terminal a progress bar shows the cells done, the rate and the time left.",
        epilog=EXAMPLES["matrix"],
        formatter_class=raw,
    )
    m.add_argument(
        "-m", "--mechanism", action="append", help="variant id or mechanism prefix (repeatable)"
    )
    m.add_argument("-c", "--computation", action="append", help="computation name (repeatable)")
    m.add_argument("-t", "--transform", action="append", help="transform id (repeatable)")
    m.add_argument(
        "--devices",
        type=int,
        default=None,
        help="CPU devices to ask for (default 4); with --processes, in all (default 2 each)",
    )
    m.add_argument(
        "--processes",
        type=int,
        default=None,
        help="run the multi-process matrix in N processes joined by jax.distributed",
    )
    m.add_argument("--local-devices", type=int, help="with --processes: CPU devices per process")
    m.add_argument(
        "--port", type=int, help="with --processes: the coordinator's port (default free)"
    )
    m.add_argument(
        "--cell-timeout",
        type=float,
        default=120.0,
        help="with --processes: seconds a cell may take before it is a timeout (default 120)",
    )
    m.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        help="worker processes (default: one per core, at most 4)",
    )
    m.add_argument(
        "--write", action="store_true", help="write docs/data/matrix/<jax>-<platform>-<n>.json"
    )
    m.add_argument("--check", action="store_true", help="compare with the committed file")
    m.add_argument("--output", help="file to write/check instead of the default path")
    m.add_argument("--show", metavar="FILE", help="print a committed matrix file, run nothing")
    m.add_argument("--details", action="store_true", help="also list why each cell is not ok")
    m.add_argument("-v", "--verbose", action="store_true", help="print each cell as it runs")
    from jaxcb_check.checker import EXAMPLE, add_arguments

    c = sub.add_parser(
        "check",
        help="find host-callback code that a JAX upgrade breaks, without running it",
        description="Find uses of removed or changed JAX host-callback APIs (rules JXC001…,\n"
        "docs/check.md). Reads the source with `ast`: never imports or runs it.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(c)
    args = parser.parse_args(argv)
    # XLA's C++ warnings (e.g. SPMD rematerialisation notes) would bury the table.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    if args.command == "matrix" and args.processes is None and args.devices is None:
        args.devices = 4
    if args.command == "matrix" and not args.show and args.processes is None:
        from .environment import use_cpu_devices

        use_cpu_devices(args.devices)
    handler = {
        "catalog": _cmd_catalog,
        "smoke": _cmd_smoke,
        "matrix": _cmd_matrix,
        "check": _cmd_check,
    }[args.command]
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
