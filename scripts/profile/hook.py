"""Run at the start of every Python of a tox environment that ``scripts/dev profile`` profiles.

``suite.py`` puts a one-line ``.pth`` file in the environment's site-packages for the
duration of the run; it runs this file when ``JAXCB_PROFILE_DIR`` is set. That reaches the
processes that start with a cleaned environment too (a reader's fresh session drops
``PYTHONPATH``), and forked children.

Each process keeps one JSON file in ``$JAXCB_PROFILE_DIR``, ``<pid>.json``: its command
line, its own CPU time, and the sums of JAX's compile events (``jax.monitoring``: tracing to
a jaxpr, lowering to MLIR, XLA's backend compile), listened to from the moment JAX imports
its monitoring module (a process that never imports JAX pays nothing for it). The file is
rewritten at most once a second while events come, and when the process ends (``atexit``
and ``os._exit``), so a process that is killed leaves what it had a second before. A forked
child starts its sums at zero. Only the standard library: this runs beside a copied pattern.
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
_SECONDS = collections.Counter()
_COUNTS = collections.Counter()
_STATE = {"start": time.monotonic(), "written": 0.0}


def _write():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    record = {
        "pid": os.getpid(),
        "argv": sys.argv[:4],
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": time.monotonic() - _STATE["start"],
        "events": dict(_SECONDS),
        "counts": dict(_COUNTS),
    }
    path = os.path.join(_DIR, f"{os.getpid()}.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(path + ".tmp", path)
    _STATE["written"] = time.monotonic()


def _on_event(event, duration, *args, **kwargs):
    _SECONDS[event] += duration
    _COUNTS[event] += 1
    if time.monotonic() - _STATE["written"] > 1.0:
        _write()


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
    _SECONDS.clear()
    _COUNTS.clear()
    _STATE["start"] = time.monotonic()
    _STATE["written"] = 0.0


_os_exit = os._exit


def _exit(code):
    try:
        _write()
    finally:
        _os_exit(code)


if _DIR and not any(type(f).__name__ == "_AtMonitoring" for f in sys.meta_path):
    sys.meta_path.insert(0, _AtMonitoring())
    os.register_at_fork(after_in_child=_forked)
    atexit.register(_write)
    os._exit = _exit
