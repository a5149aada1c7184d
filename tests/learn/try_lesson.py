"""Run one lesson as the tests do and print each cell's output (for authors).

``python tests/learn/try_lesson.py docs/learn/lessons/01_first_pure_callback.py``
with the Python of a test env (``.tox/py312/bin/python``). Prints every cell's stdout under
its tag, then whether the plain script printed the same, and the wall time of each run.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lessons

if __name__ == "__main__":
    for arg in sys.argv[1:]:
        lesson = lessons.Lesson.from_path(Path(arg).resolve())
        t0 = time.perf_counter()
        ran = lessons.run(lesson)
        print(f"== {lesson.id}: cells {time.perf_counter() - t0:.1f} s (both runs)")
        for tag, out in ran.cells:
            print(f"-- [{tag}]")
            print(out, end="")
        if ran.error:
            print(f"!! stopped in cell {ran.error['cell']}: {ran.error['line']}")
        print("-- plain script exit", ran.script_returncode)
        diff = lessons.first_difference(ran.joined(), ran.script_stdout)
        print("-- plain script prints the same" if diff is None else f"-- DIFFERS: {diff}")
        if ran.script_returncode and ran.script_stderr:
            print(ran.script_stderr[-2000:])
