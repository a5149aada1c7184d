"""A reader's fresh interpreter, forked instead of started: ``python -P forkserver.py``
imports what a reader's script imports first (JAX, NumPy, SciPy with the three SciPy
modules the catalog's computations call: special, linalg, optimize) and nothing else (no
backend, no device, no flag), then forks one child per script it is asked to run. Each
child is the interpreter ``python -P SCRIPT ARGS`` would be once its imports are done:
its own working directory, ``sys.argv``, stdout and stderr (files), stdin from
/dev/null, an uncaught exception printed as Python prints it (exit code 1), its own
process group (killed whole at the timeout). Starting Python and importing JAX costs
about a CPU-second per interpreter, the three SciPy modules 0.7 more; the test sessions
run a few hundred scripts. What the server imported is frozen (``gc.freeze``) before the
first fork, so a child's garbage collections and exit do not walk, and copy, the
server's objects: 0.26 instead of 0.40 CPU-seconds for a child that runs ``pass``
(measured on JAX 0.12.0.1, 2026-12-03).

Only the standard library here: nothing of this repository is importable beside a script.

``ARGS`` may also be ``-c CODE ...``, as for python.

Protocol, one JSON object per line: the server reads ``{"id", "argv", "cwd", "stdout",
"stderr", "timeout"}`` on stdin and answers ``{"id", "returncode"}`` on stdout when that
child ends (``returncode`` null when it was killed at ``timeout`` seconds).
"""

import builtins
import contextlib
import gc
import json
import os
import select
import signal
import sys
import time
import types


def _preload() -> None:
    import jax
    import jax.numpy  # noqa: F401
    import numpy  # noqa: F401
    import scipy
    import scipy.linalg
    import scipy.optimize
    import scipy.special  # noqa: F401


def _child(request: dict, channel: tuple) -> None:
    """Become ``python -P ARGV...`` in ``request["cwd"]``; never returns."""
    import runpy
    import traceback

    for f in channel:
        f.close()
    os.setpgid(0, 0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (null, out, err):
        os.close(fd)
    os.chdir(request["cwd"])
    argv = list(request["argv"])
    if argv[0] == "-c":  # python -P -c CODE ARGS
        source, sys.argv, path = argv[1], ["-c", *argv[2:]], "<string>"
        main = types.ModuleType("__main__")
        main.__builtins__ = builtins  # type: ignore[attr-defined]
        sys.modules["__main__"] = main

        def run() -> None:
            exec(compile(source, path, "exec"), main.__dict__)
    else:  # python -P SCRIPT ARGS
        sys.argv, path = argv, os.path.abspath(argv[0])

        def run() -> None:
            runpy.run_path(path, run_name="__main__")

    code = 0
    try:
        run()
    except SystemExit as e:
        code = e.code
    except BaseException as e:  # printed from the script's own frame on, as python does
        tb = e.__traceback__
        while tb is not None and _where(tb.tb_frame.f_code.co_filename) != path:
            tb = tb.tb_next
        sys.stdout.flush()
        traceback.print_exception(type(e), e, tb or e.__traceback__)
        code = 1
    raise SystemExit(code)  # the interpreter's own shutdown: atexit, flushing


def _where(filename: str) -> str:
    return filename if filename.startswith("<") else os.path.abspath(filename)


def serve() -> None:
    _preload()
    gc.freeze()  # the children's collections leave the server's objects (and pages) alone
    # The protocol on private descriptors; fd 0 and 1 are the children's.
    requests, answers = os.dup(0), os.dup(1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    # Unbuffered: one read takes every request that has arrived, and all of them are
    # started (a buffered readline would leave the second of two requests that came in one
    # read waiting in the buffer, where select() does not see it).
    reader = os.fdopen(requests, "rb", buffering=0)
    writer = os.fdopen(answers, "w", encoding="utf-8", buffering=1)
    running: dict[int, tuple[object, float]] = {}  # pid -> (request id, deadline)
    open_, pending = True, b""
    while open_ or running:
        ready, _, _ = select.select([reader] if open_ else [], [], [], 0.02)
        if ready:
            chunk = reader.read(1 << 16)
            open_ = bool(chunk)
            *lines, pending = (pending + chunk).split(b"\n")
            for line in filter(bytes.strip, lines):
                request = json.loads(line)
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _child(request, (reader, writer))
                running[pid] = (request["id"], time.monotonic() + float(request["timeout"]))
        for pid, (rid, deadline) in list(running.items()):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                del running[pid]
                writer.write(json.dumps({"id": rid, "returncode": _code(status)}) + "\n")
            elif time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                del running[pid]
                writer.write(json.dumps({"id": rid, "returncode": None}) + "\n")


def _code(status: int) -> int:
    """The exit code ``subprocess`` would report: negative for a signal."""
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    serve()
