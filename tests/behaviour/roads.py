"""Other roads between device and host: standalone programs for the ways that are not
callbacks (compute on the host, asynchronous copies, colocated Python), each run on the
installed JAX.

A road is ``docs/roads/<id>.py``, a script a reader copies (JAX, NumPy and the standard
library only) that prints ``name: value`` facts. The session runs it and compares the facts
with ``docs/data/behaviour/`` (group ``road``); the "Other roads" page shows the script and
what it printed per JAX version.
"""

from __future__ import annotations

from harness import DOCS, script

ROADS: tuple[tuple[str, str], ...] = (
    ("compute-on", "compute_on(compute_type='device_host'): part of a jitted function on the host"),
    ("compute-on-context", "compute_on as a context manager, the form of earlier JAX releases"),
    ("copy-to-host-async", "copy_to_host_async: start the copies, read the values later"),
    ("colocated-python", "colocated_python: Python next to the devices, three calls"),
    ("colocated-python-threads", "colocated_python called from two threads at once"),
    ("colocated-python-transforms", "colocated_python under jit, grad, vmap and other transforms"),
    ("checkify-runtime-errors", "checkify.check under jit, and the flag that raises at run time"),
)
FRESH = {"checkify-runtime-errors"}  # it turns a global flag on: an interpreter of its own

for _id, _title in ROADS:
    script("road", _id, _title, DOCS / "roads" / f"{_id}.py", fresh=_id in FRESH)
