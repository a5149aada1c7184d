"""Run a lesson's code cells one after another in one fresh interpreter, as a notebook does.

``python -P cellrun.py CELLS.json OUT.json``: CELLS.json is ``[[tag, source], ...]`` (the
lesson's code cells, read by jupytext in the test process); each cell runs in one shared
namespace with ``__name__ == "__main__"``, its stdout captured on its own. OUT.json gets
``{"cells": [[tag, stdout], ...], "error": None | {"cell": tag, "line": "Type: message"}}``.
The first cell that raises stops the run, as it stops a script.

Only the standard library: nothing of this repository is importable beside the lesson.
"""

import contextlib
import io
import json
import sys


def main(cells_path: str, out_path: str) -> int:
    with open(cells_path, encoding="utf-8") as f:
        cells = json.load(f)
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    done = []
    error = None
    for tag, source in cells:
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer):
                exec(compile(source, f"<cell {tag}>", "exec"), namespace)
        except BaseException as e:
            done.append([tag, buffer.getvalue()])
            # the exception's own first line (not a note JAX appends to the traceback)
            lines = str(e).strip().splitlines()
            error = {
                "cell": tag,
                "line": f"{type(e).__name__}: {lines[0]}" if lines else type(e).__name__,
            }
            break
        done.append([tag, buffer.getvalue()])
    sys.stdout.flush()
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"cells": done, "error": error}, f)
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
