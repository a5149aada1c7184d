"""The multi-process room: N processes on this machine that JAX's own runtime joins.

- :mod:`.layout`: processes × devices per process, and the loopback ports they use;
- :mod:`.launcher`: start the processes, watch them, time out, kill and collect (no JAX);
- :mod:`.worker`: one process of a job (``python -m jaxcb_core.distributed.worker``);
- :mod:`.spmd`: the multi-process transforms (``shard_map``, ``jit`` over a global mesh);
- :mod:`.matrix`: the multi-process matrix, graded from every process's records;
- :mod:`.shardcost`: the time of a sharded host call, measured after the cells;
- :mod:`.cli`: ``jaxcb matrix --processes N``.

It uses the single-process room's cell runner and checks (:mod:`jaxcb_core.matrix`).
"""

from __future__ import annotations

from .launcher import Launch, LaunchError, launch, stop
from .layout import Layout, LayoutError

__all__ = ["Launch", "LaunchError", "Layout", "LayoutError", "launch", "stop"]
