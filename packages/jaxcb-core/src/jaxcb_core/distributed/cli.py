"""``jaxcb matrix --processes N``: the multi-process matrix from the command line.

Checks the layout and the port before anything starts (exit 2 with the reason), launches
the job (:mod:`jaxcb_core.distributed.matrix`), prints the matrix, and writes or checks
``docs/data/matrix/<jax>-<platform>-<procs>x<devices per process>.json``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from .. import matrix
    from ..schema import dump, matrix_stem
    from ..text import check, details, render
    from . import matrix as distmatrix
    from .launcher import LaunchError
    from .layout import Layout, LayoutError, check_port

    width = shutil.get_terminal_size((80, 24)).columns
    try:
        layout = Layout.of(args.processes, args.local_devices, args.devices)
        if args.port is not None:
            check_port(args.port)
    except LayoutError as e:
        print(f"jaxcb matrix: {e}", file=sys.stderr)
        return 2
    partial = bool(args.mechanism or args.computation or args.transform)
    if args.write and partial:
        print("refusing to --write a partial matrix: drop -m/-c/-t", file=sys.stderr)
        return 2
    print(
        f"jaxcb: {layout.processes} processes × {layout.local_devices} CPU devices, "
        "joined by jax.distributed on 127.0.0.1",
        file=sys.stderr,
    )
    try:
        result = distmatrix.run(
            layout,
            args.mechanism,
            args.computation,
            args.transform,
            costs=args.write,  # the timings are written, never compared
            port=args.port,
            cell_timeout=args.cell_timeout,
            progress=lambda line: print(f"jaxcb: {line}", file=sys.stderr),
        )
    except (LayoutError, LaunchError) as e:
        print(f"jaxcb matrix: {e}", file=sys.stderr)
        return 2
    except KeyError as e:  # -m/-c/-t that names nothing
        print(f"jaxcb matrix: {e.args[0]}", file=sys.stderr)
        return 2
    print(render(result, width))
    if args.details:
        print("\n" + details(result, width))
    print(f"\n{len(result.cells)} cells in {result.environment.duration_s} s")
    name = f"{matrix_stem(result.environment)}.json"
    path = Path(args.output) if args.output else matrix.data_dir() / name
    if args.write:
        dump(result, path)
        print(f"wrote {path}")
    if args.check:
        return check(result.cells, path, "with --write")
    return 0
