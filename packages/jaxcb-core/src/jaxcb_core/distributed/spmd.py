"""The columns of the multi-process matrix: the same cases across processes and shards.

Each transform runs in every process of a job that ``jax.distributed.initialize`` joined
(:mod:`jaxcb_core.distributed.worker`, started by :mod:`jaxcb_core.distributed.launcher`). The mesh is every
device of every process, ``jax.devices()``, along one axis ``"i"``; global arrays are built
with ``jax.make_array_from_callback``, so each process only ever holds its own blocks.

A transform's result is read on every process the way a user would read it: ``np.asarray``
where the array is replicated or all on this process (what ``jax.device_get`` does), and
``multihost_utils.process_allgather`` where it is split over processes. A result that
only one process holds therefore reads wrong on the others, and the cell says so.

``Trial.calls`` are the logical calls of the whole job (the expected host records follow
from them), except under ``local_jit``, where each process runs a program of its own and
the calls are that process's: the harness then adds up what every process owed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding

from ..matrix.transforms import Case, NotApplicable, Transform, Trial

__all__ = ["KEYWORDS", "LOCAL", "TEST_FILE", "TRANSFORMS", "by_id", "placement", "read", "test_id"]

TEST_FILE = "tests/distributed/test_distributed_matrix.py"
LOCAL = frozenset({"local_jit"})  # each process runs a program of its own
# Keywords a transform binds where the implementation takes them (the cell is n/a elsewhere).
KEYWORDS: dict[str, dict[str, Any]] = {"partitioned": {"partitioned": True}}
SPLIT = PartitionSpec("i")
WHOLE = PartitionSpec()


def test_id(variant: str, computation: str, transform: str) -> str:
    """The pytest id of the snapshot test that checks this cell of the multi-process matrix."""
    return f"{TEST_FILE}::test_cell[{variant}|{computation}|{transform}]"


def mesh() -> Mesh:
    """Every device of every process, along one axis ``"i"``."""
    return Mesh(np.array(jax.devices()), ("i",))


def place(a: Any, spec: PartitionSpec, m: Mesh) -> jax.Array:
    """A global array from a NumPy array every process has: each process builds its blocks."""
    host = np.asarray(a)
    return jax.make_array_from_callback(host.shape, NamedSharding(m, spec), lambda i: host[i])


def shard_map_fn() -> Callable[..., Any]:
    if hasattr(jax, "shard_map"):
        return jax.shard_map
    from jax.experimental.shard_map import shard_map  # JAX < 0.7

    return shard_map


def _stack(trees: list[Any]) -> Any:
    return jax.tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *trees)


def _specs(case: Case, m: Mesh) -> list[PartitionSpec]:
    """Split along axis 0 the batchable arguments that split evenly over the mesh."""
    specs = []
    for p, a in zip(case.dyn_positions, case.dyn, strict=True):
        shape = np.shape(a)
        ok = p in case.comp.batch_argnums and len(shape) > 0 and shape[0] % m.size == 0
        specs.append(SPLIT if ok else WHOLE)
    if SPLIT not in specs:
        raise NotApplicable(f"no argument can be split {m.size} ways")
    return specs


def _blocks(case: Case, m: Mesh, specs: list[PartitionSpec]) -> list[tuple[Any, ...]]:
    """The arguments each device holds, in mesh order: the logical calls of a partitioned one."""
    out = []
    for device in m.devices.flat:
        args = []
        for a, spec in zip(case.dyn, specs, strict=True):
            host = np.asarray(a)
            args.append(host[NamedSharding(m, spec).devices_indices_map(host.shape)[device]])
        out.append(tuple(args))
    return out


def _local_jit(case: Case) -> Trial:
    return Trial(jax.jit(case.g)(*case.dyn), case.ref(*case.dyn), [case.dyn])


def _sharded_jit(case: Case) -> Trial:
    m = mesh()
    placed = [place(a, s, m) for a, s in zip(case.dyn, _specs(case, m), strict=True)]
    return Trial(jax.jit(case.g)(*placed), case.ref(*case.dyn), [case.dyn])


def _replicated_out(case: Case) -> Trial:
    m = mesh()
    placed = [place(a, s, m) for a, s in zip(case.dyn, _specs(case, m), strict=True)]
    f = jax.jit(case.g, out_shardings=NamedSharding(m, WHOLE))
    return Trial(f(*placed), case.ref(*case.dyn), [case.dyn])


def _partitioned(case: Case) -> Trial:
    m = mesh()
    specs = _specs(case, m)
    placed = [place(a, s, m) for a, s in zip(case.dyn, specs, strict=True)]
    return Trial(jax.jit(case.g)(*placed), case.ref(*case.dyn), _blocks(case, m, specs))


def _shard_map(case: Case) -> Trial:
    m = mesh()
    dyn, elems = case.batched(m.size)
    axes = case.in_axes()

    def body(*blocks: Any) -> Any:
        args = [b[0] if a == 0 else b for a, b in zip(axes, blocks, strict=True)]
        return jax.tree_util.tree_map(lambda o: o[None], case.g(*args))

    specs = tuple(SPLIT if a == 0 else WHOLE for a in axes)
    placed = [place(a, s, m) for a, s in zip(dyn, specs, strict=True)]
    f = shard_map_fn()(body, mesh=m, in_specs=specs, out_specs=SPLIT)
    return Trial(jax.jit(f)(*placed), _stack([case.ref(*e) for e in elems]), elems)


def _sharded_grad(case: Case) -> Trial:
    i = case.diff_index
    m = mesh()
    specs = _specs(case, m)
    if specs[i] != SPLIT:
        raise NotApplicable(f"the differentiable argument cannot be split {m.size} ways")
    placed = [place(a, s, m) for a, s in zip(case.dyn, specs, strict=True)]

    def total(*dyn: Any) -> Any:  # every argument passed in: jit may not close over them
        return sum(jnp.sum(leaf) for leaf in jax.tree_util.tree_leaves(case.g(*dyn)))

    out = jax.jit(jax.grad(total, argnums=i))(*placed)
    return Trial(out, case.grad_ref(case.dyn), [case.dyn], derivative=True)


TRANSFORMS: tuple[Transform, ...] = (
    Transform(
        "local_jit",
        "jit, each process alone",
        "one program per process",
        "jax.jit(f) on NumPy inputs in every process: each process runs a program of its own "
        "on its own first device, and nothing crosses processes.",
        _local_jit,
    ),
    Transform(
        "sharded_jit",
        "jit, input split over processes",
        "one program for the job",
        "jax.jit(f) on global arrays split along axis 0 over every device of every process "
        "(jax.make_array_from_callback with a NamedSharding).",
        _sharded_jit,
    ),
    Transform(
        "replicated_out",
        "jit, split input, out_shardings=P()",
        "one program for the job",
        "As the split-input jit, with out_shardings=NamedSharding(mesh, P()): the result is "
        "replicated on every device of every process, wherever the callback left it.",
        _replicated_out,
    ),
    Transform(
        "partitioned",
        "jit, split input, partitioned=True",
        "one program for the job",
        "As the split-input jit, with partitioned=True where the implementation takes it "
        "(jax.debug.callback and jax.debug.print have it): each shard's callback gets its own "
        "block, so the logical calls are the shards.",
        _partitioned,
    ),
    Transform(
        "shard_map",
        "shard_map over every device",
        "one program for the job",
        "shard_map over a mesh of every device of every process, one batch element per device.",
        _shard_map,
    ),
    Transform(
        "sharded_grad",
        "grad, input split over processes",
        "one program for the job",
        "jax.jit(jax.grad(...)) of the sum of the outputs, the differentiable argument split "
        "over every device of every process.",
        _sharded_grad,
    ),
)


def by_id(tid: str) -> Transform:
    for t in TRANSFORMS:
        if t.id == tid:
            return t
    raise KeyError(f"no multi-process transform {tid!r}; known: {[t.id for t in TRANSFORMS]}")


def read(tree: Any) -> Any:
    """The transform's result as this process can read it (see the module docstring)."""

    def one(x: Any) -> np.ndarray:
        if isinstance(x, jax.Array) and not (
            x.is_fully_addressable or x.sharding.is_fully_replicated
        ):
            return np.asarray(multihost_utils.process_allgather(x, tiled=True))
        return np.asarray(x)

    return jax.tree_util.tree_map(one, tree)


def placement(tree: Any) -> str | None:
    """Where the first output lives: ``P('i')`` (split), ``P()`` (replicated), ``one
    device``, or XLA's own words (``{maximal device=0}``: only device 0 holds it)."""
    leaves = jax.tree_util.tree_leaves(tree)
    if not leaves or not isinstance(leaves[0], jax.Array):
        return None
    s = leaves[0].sharding
    if isinstance(s, NamedSharding):
        return "P(" + ", ".join(repr(a) for a in s.spec) + ")"
    if isinstance(s, SingleDeviceSharding):
        return "one device"
    found = re.search(r"\{[^}]*\}", str(s))
    return found.group(0) if found else type(s).__name__
