"""Loaded by every Python that ``scripts/dev profile`` starts (``PYTHONPATH`` names this folder).

Each process writes, when it ends, one JSON file to ``$JAXCB_PROFILE_DIR``: its own CPU time,
its command line, and the sums of JAX's compile events (``jax.monitoring``: tracing to a
jaxpr, lowering to MLIR, XLA's backend compile), registered the moment JAX imports its
monitoring module, so a process that never imports JAX pays nothing for it. A forked child
starts its sums at zero. Only the standard library: this runs beside a copied pattern too.
"""

import atexit
import collections
import importlib.util
import json
import os
import resource
import sys
import time

_DIR = os.environ.get("JAXCB_PROFILE_DIR")
_SECONDS: collections.Counter[str] = collections.Counter()
_COUNTS: collections.Counter[str] = collections.Counter()
_START = time.monotonic()


def _on_event(event, duration, *args, **kwargs):
    _SECONDS[event] += duration
    _COUNTS[event] += 1


class _AtMonitoring:
    """Registers the listener once ``jax._src.monitoring`` has run, then steps aside."""

    def find_spec(self, name, path=None, target=None):
        if name != "jax._src.monitoring":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.register_event_duration_secs_listener(_on_event)

        spec.loader.exec_module = exec_module
        return spec


def _forked():
    global _START
    _SECONDS.clear()
    _COUNTS.clear()
    _START = time.monotonic()


def _write():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    record = {
        "pid": os.getpid(),
        "argv": sys.argv[:4],
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": time.monotonic() - _START,
        "events": dict(_SECONDS),
        "counts": dict(_COUNTS),
    }
    with open(os.path.join(_DIR, f"{os.getpid()}.json"), "w", encoding="utf-8") as f:
        json.dump(record, f)


if _DIR:
    sys.meta_path.insert(0, _AtMonitoring())
    os.register_at_fork(after_in_child=_forked)
    atexit.register(_write)
