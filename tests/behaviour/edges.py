"""Edge cases that JAX's own callback tests pin down, each measured on the installed JAX.

Each is a script a reader can copy and run, ``docs/edges/<id>.py``, printing what happened
as ``name: value`` facts: the error a caller would see (type and first line), the host
calls, what the host received. The session runs each on the installed JAX and compares its
facts with ``docs/data/behaviour/`` (group ``edge``); the edge-cases page shows the script
beside them. A script that needs an API the installed JAX lacks fails, and that failure is
its result there.
"""

from __future__ import annotations

from harness import DOCS, script

# (id, title, fresh): a fresh one runs in a new interpreter of its own (a failed callback
# may leave an old runtime in a state the next script would inherit; the compilation
# cache is configured once per process)
EDGES: tuple[tuple[str, str, bool], ...] = (
    ("failing-log", "What a failing pure_callback writes to the log", True),
    ("compile-once", "A jitted pure_callback called three times", False),
    ("int4", "A pure_callback with an int4 operand and result", True),
    ("fortran-order", "A host function returning a Fortran-ordered or strided array", False),
    ("legacy-vectorized", 'vmap_method="legacy_vectorized" under vmap', False),
    ("wrong-shape-batched", "A host function returning the wrong shape under vmap", True),
    ("no-vmap-method", "pure_callback without vmap_method, under each transform", False),
    ("transpose", "linear_transpose of a pure_callback", False),
    (
        "io-checkpoint",
        "An io_callback inside jax.checkpoint, off the differentiated path",
        False,
    ),
    ("vmap-while-pred", "vmap of a while loop whose predicate is not batched", False),
    ("debug-not-callable", "jax.debug.callback given something that is not callable", False),
    ("print-format", "jax.debug.print with a format field it was not given", False),
    ("print-two-calls", "jax.debug.print with its options in a call of their own", False),
    ("buffer-side-effect", "buffer_callback(has_side_effect=True) with no inputs", False),
    (
        "cache-hit-exception",
        "The error of a failing callback, first call and cached call",
        True,
    ),
    ("compile-cache", "The persistent compilation cache and a pure_callback", True),
    (
        "sharding-device",
        "pure_callback(sharding=) naming a device other than the first",
        True,
    ),
    ("failing-log-io", "What a failing io_callback writes to the log", True),
    ("failing-log-debug", "What a failing jax.debug.callback writes to the log", True),
    ("eager-compiles", "Compiles for three calls of a pure_callback, eager and jitted", True),
    ("sub-byte", "A pure_callback with a uint4 or int2 operand and result", True),
    (
        "legacy-vectorized-axes",
        'vmap_method="legacy_vectorized" under vmap with in_axes=1 and out_axes=1',
        False,
    ),
    ("pmap-devices", "pmap over four devices of a pure_callback without vmap_method", True),
    ("transpose-io", "linear_transpose of an io_callback", False),
    (
        "io-while-batched-pred",
        "An io_callback in a while loop whose predicate is batched, under vmap",
        False,
    ),
    ("print-unused", "jax.debug.print given a value its format does not use", False),
    ("callback-two-calls", "jax.debug.callback with its options in a call of their own", False),
    ("argument-view", "np.asarray of a host function's argument: a view or a copy", False),
    ("call-order", "The order in which two independent callbacks run", False),
    ("buffer-copy", "np.array of a buffer_callback's input buffer", True),
)

for _id, _title, _fresh in EDGES:
    script("edge", _id, _title, DOCS / "edges" / f"{_id}.py", fresh=_fresh)
