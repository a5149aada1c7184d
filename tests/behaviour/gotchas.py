"""Gotchas: small programs whose behaviour surprises, each with what to write instead.

A gotcha is two standalone scripts a reader can copy and run, ``docs/gotchas/<id>.py``
(the trap) and ``docs/gotchas/<id>.fix.py`` (the same job done the right way). Each prints
what happened, one ``name: value`` line per fact (:func:`harness.facts`). The session runs
every script on the installed JAX and compares its facts with ``docs/data/behaviour/``
(group ``gotcha`` for the trap, ``fix`` for the fix); the gotchas page shows the scripts
beside those facts. A fix must also print its right outcome, :attr:`Gotcha.right`, on every
JAX version from :attr:`Gotcha.since` on (``test_fix_gives_the_right_outcome``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from harness import DOCS, script

SCRIPTS = DOCS / "gotchas"


@dataclasses.dataclass(frozen=True)
class Gotcha:
    id: str
    title: str  # what the trap program does
    fix: str  # what the fix program does instead
    right: dict[str, Any]  # facts the fix must print
    since: str = "0.4.30"  # the oldest measured JAX the fix is written for

    def script(self, fixed: bool = False) -> Path:
        return SCRIPTS / f"{self.id}{'.fix' if fixed else ''}.py"


NEWER = "0.10.2"  # fixes that need an API or option JAX 0.4.30 does not have

GOTCHAS: tuple[Gotcha, ...] = (
    Gotcha(
        "dce",
        "An unused pure_callback under jit",
        "An io_callback whose result is unused, under jit",
        {"host_calls": 1},
    ),
    Gotcha(
        "hoist",
        "A pure_callback on a loop-invariant value inside fori_loop",
        "An io_callback on the same value inside fori_loop",
        {"steps": 5, "host_calls": 5},
    ),
    Gotcha(
        "noargs-grad",
        "An io_callback with no arguments in a scan, under jit and under grad",
        "The same io_callback given the step index",
        {"steps": 5, "host_calls_jit": 5, "host_calls_grad": 5},
    ),
    Gotcha(
        "io-scan-grad",
        "An io_callback off the differentiated path in a scan, under grad",
        "The per-step values returned as an auxiliary output, logged after the step",
        {"steps": 5, "logged_jit": 5, "logged_grad": 5, "logged_value_and_grad": 5},
    ),
    Gotcha(
        "remat",
        "A jax.debug.callback inside jax.checkpoint, under grad",
        "The jax.debug.callback outside the checkpointed function",
        {"calls_written": 1, "host_calls": 1},
    ),
    Gotcha(
        "vmap-cond",
        "Callbacks in both branches of lax.cond, under vmap",
        "One callback after lax.cond, given the predicate",
        {"all_true": True, "yes_calls": 4, "no_calls": 0},
    ),
    Gotcha(
        "ordered-devices",
        "An ordered jax.debug.callback on a sharded input",
        "An unordered jax.debug.callback given the step, sorted on the host",
        {"devices": 4, "records": "[(0, 28.0), (1, 56.0), (2, 112.0)]"},
        since=NEWER,
    ),
    Gotcha(
        "gathered",
        "A pure_callback under jit on an input sharded 4 ways",
        "The pure_callback inside jax.shard_map",
        {
            "shards": 4,
            "host_calls": 4,
            "shape_seen": "(2,)",
            "result": "[0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]",
        },
        since=NEWER,
    ),
    Gotcha(
        "dtype",
        "A host function returning float64 where float32 was promised",
        "The host function converting to the promised float32 itself",
        {
            "x64": False,
            "host_returned": "float32",
            "result": "float32",
            "host_value": "0.8414709568023682",
            "result_value": "0.8414709568023682",
        },
    ),
    Gotcha(
        "vectorized",
        "pure_callback(..., vectorized=True)",
        'pure_callback(..., vmap_method="expand_dims")',
        {
            "result": "[0.0, 2.0, 4.0]",
            "batched_result": "[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]",
            "host_calls": 2,
            "shapes_seen": "[(3,), (2, 3)]",
        },
        since=NEWER,
    ),
    Gotcha(
        "exceptions",
        "A host function raising KeyError, eagerly and under jit",
        "The host function keeping its error, the caller raising it after the call",
        {"jit": "KeyError('missing entry')", "eager": "KeyError('missing entry')"},
    ),
    Gotcha(
        "fstring",
        "An f-string passed to jax.debug.print under jit",
        "A format string and the value passed to jax.debug.print",
        {"printed_1": "x = 2.0", "printed_2": "x = 3.0"},
    ),
    Gotcha(
        "export",
        "jax.export of a function with a pure_callback",
        "jax.export of the JAX part alone, the host step called around it",
        {"export": "works", "same_result_as_f": True},
    ),
    Gotcha(
        "no-vmap-method",
        "jax.vmap of a pure_callback without vmap_method",
        "jax.vmap of a pure_callback with vmap_method",
        {
            "sequential_host_calls": 2,
            "sequential_shape_seen": "(3,)",
            "sequential_right_values": True,
            "expand_dims_host_calls": 1,
            "expand_dims_shape_seen": "(2, 3)",
            "expand_dims_right_values": True,
        },
        since=NEWER,
    ),
    Gotcha(
        "ordered-vmap",
        "jax.vmap of an io_callback, unordered and ordered",
        "One ordered io_callback on the whole batch, outside jax.vmap",
        {"ordered": "runs", "host_calls": 1, "shape_seen": "(2, 3)", "right_values": True},
    ),
    Gotcha(
        "argument-type",
        "The type of the array a host function receives",
        "The host function converting its argument with np.asarray",
        {"type": "numpy.ndarray", "writeable": False},
    ),
    Gotcha(
        "merged",
        "Two identical pure_callbacks in one jitted program",
        "Two identical io_callbacks in one jitted program",
        {"calls_written": 2, "host_calls": 2},
    ),
    Gotcha(
        "grad-primal",
        "A jax.debug.callback under grad",
        "A jax.debug.callback on what jax.grad returns",
        {"host_calls": 1, "values": 6},
    ),
    Gotcha(
        "io-vmap",
        "jax.vmap of an unordered io_callback",
        "One io_callback on the whole batch, outside jax.vmap",
        {"batch": 4, "host_calls": 1, "shape_seen": "(4, 3)"},
    ),
    Gotcha(
        "host-callback-gone",
        "import jax.experimental.host_callback",
        "The same tap with jax.debug.callback",
        {"host_calls": 1, "host_received": "[0. 1. 2.]"},
    ),
    Gotcha(
        "buffer-inputs",
        "A buffer_callback writing into its input buffer",
        "A buffer_callback writing only into its output buffer",
        {
            "result": "[1. 3. 5.]",
            "caller_input_after": "[0. 1. 2.]",
            "same_call_again": "[1. 3. 5.]",
        },
        since=NEWER,
    ),
    Gotcha(
        "colocated-copy",
        "A colocated_python function appending to a list of the calling program",
        "The colocated_python function returning what the calling program keeps",
        {"steps_the_calling_program_sees": 3, "sums": "[0.0, 2.0, 4.0]"},
        since=NEWER,
    ),
)


for _g in GOTCHAS:
    script("gotcha", _g.id, _g.title, _g.script())
    script("fix", _g.id, _g.fix, _g.script(fixed=True))
