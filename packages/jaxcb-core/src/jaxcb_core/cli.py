"""The ``jaxcb`` command: the catalog, a smoke run, and the support matrix in the terminal.

jaxcb catalog                      the computations and the installed mechanism variants
jaxcb smoke                        run every implementation once under jit, check it
jaxcb matrix [-m M] [-c C] [-t T]  run (part of) the matrix and print it
jaxcb matrix --write               ... and write docs/data/matrix/<jax>-<platform>-<n>.json
jaxcb matrix --check               ... and compare with the committed file (exit 1 on change)
jaxcb matrix --show FILE           print a committed file without running anything
jaxcb check PATH...                find code that a JAX upgrade breaks (no JAX needed)
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .schema import MatrixFile

SYMBOL = {"ok": "✓", "wrong": "≠", "error": "✗", "n/a": "·"}


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
    from .cell import run_cell
    from .mechanisms import discover
    from .transforms import by_id

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
    from . import check  # the standard library only: `jaxcb check` never imports JAX

    return check.run(args.paths, args.format)


def render(data: MatrixFile, width: int = 80) -> str:
    """The matrix as text: one block per computation, transforms down, variants across."""
    variants = data.variants
    transforms = data.transforms
    cells = data.cell_map()
    env = data.environment
    lines = [
        f"JAX {env.jax} (jaxlib {env.jaxlib}), Python {env.python}, "
        f"{env.platform} × {env.device_count} ({env.device_kind}), "
        f"{env.process_count} process{'es' if env.process_count > 1 else ''}",
        "  " + "  ".join(f"{SYMBOL[s]} {s}" for s in SYMBOL),
        "",
        "Columns:",
    ]
    for i, v in enumerate(variants, 1):
        lines.append(f"  {i:>2} {v.id}")
    label_w = max(len(t.label) for t in transforms) + 1
    for comp in data.computations:
        lines += ["", f"{comp.name}: {comp.summary}"[:width]]
        lines.append(" " * label_w + "".join(f"{i:>3}" for i in range(1, len(variants) + 1)))
        for t in transforms:
            found = (cells.get((v.id, comp.name, t.id)) for v in variants)
            row = [SYMBOL[c.status] if c else " " for c in found]
            lines.append(f"{t.label:<{label_w}}" + "".join(f"{s:>3}" for s in row))
    return "\n".join(lines)


def details(data: MatrixFile, width: int = 80) -> str:
    """One line per cell that is not ``ok`` (why), for ``--details``."""
    out = []
    for c in data.cells:
        if c.status == "ok":
            continue
        why = c.reason or f"{c.error_type}: {c.error}"
        out.append(f"{SYMBOL[c.status]} {c.variant} | {c.computation} | {c.transform}")
        out.append(textwrap.fill(why, width=width, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(out)


def _cmd_matrix(args: argparse.Namespace) -> int:
    from . import matrix
    from .schema import Cell, dump, load_matrix

    width = shutil.get_terminal_size((80, 24)).columns
    if args.show:
        data = load_matrix(Path(args.show))
        print(render(data, width))
        if args.details:
            print("\n" + details(data, width))
        return 0

    from .environment import use_cpu_devices

    use_cpu_devices(args.devices)

    done = 0

    def tick(cell: Cell) -> None:
        nonlocal done
        done += 1
        if args.verbose:
            print(
                f"{SYMBOL[cell.status]} {cell.variant} | {cell.computation} | {cell.transform}",
                file=sys.stderr,
            )
        elif done % 50 == 0:
            print(f"  {done} cells…", file=sys.stderr)

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
        if not path.exists():
            print(f"no committed matrix at {path}: run `jaxcb matrix --write`", file=sys.stderr)
            return 1
        committed = load_matrix(path).cell_map()
        changed = 0
        for cell in result.cells:
            old = committed.get(cell.key())
            diff = ["not in the committed file"] if old is None else matrix.compare(old, cell)
            if diff:
                changed += 1
                print(f"changed: {' | '.join(cell.key())}")
                for d in diff:
                    print(f"    {d}")
        if changed:
            print(f"{changed} cell(s) differ from {path}; `jaxcb matrix --write` updates it")
            return 1
        print(f"matches {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="jaxcb", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("catalog", help="list computations and installed mechanism variants")
    sub.add_parser("smoke", help="run every implementation once under jit")
    m = sub.add_parser("matrix", help="run the support matrix")
    m.add_argument(
        "-m", "--mechanism", action="append", help="variant id or mechanism prefix (repeatable)"
    )
    m.add_argument("-c", "--computation", action="append", help="computation name (repeatable)")
    m.add_argument("-t", "--transform", action="append", help="transform id (repeatable)")
    m.add_argument("--devices", type=int, default=4, help="CPU devices to ask for (default 4)")
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
    from .check import EXAMPLE, add_arguments

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
    if args.command == "matrix" and not args.show:
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
