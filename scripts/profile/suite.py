"""Where the suite's time goes: each tox environment run alone, profiled.

``scripts/dev profile [-e ENV,...] [--out DIR]`` runs here. For each environment (by default
those of ``scripts/dev test``), one after the other so that none slows another:

- the wall time and the CPU time of everything it started (``getrusage`` of the children:
  tox, pytest, the matrix's workers, subprocesses, the compiler);
- the part tox spent installing (its ``setup[...]``);
- what every Python it started spent in JAX's compile steps, read from ``jax.monitoring``
  by ``hook/sitecustomize.py``: tracing to a jaxpr, lowering to MLIR, XLA's backend compile;
- each test module's time, from pytest's JUnit XML (a session fixture's work, such as
  measuring a whole matrix file, counts in the module that first asks for it).

It prints Markdown tables and writes ``profile.json`` in ``--out``
(``test-artifacts/profile`` by default). Standard library only: it runs with the
``python3`` that ``scripts/dev`` bootstraps from. Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOOK = Path(__file__).resolve().parent / "hook"
DEFAULT_ENVS = ["py311", "py312", "py313", "legacy", "docs", "type", "lint"]
EVENTS = {
    "trace_s": "/jax/core/compile/jaxpr_trace_duration",
    "lower_s": "/jax/core/compile/jaxpr_to_mlir_module_duration",
    "compile_s": "/jax/core/compile/backend_compile_duration",
}
_SETUP = re.compile(r"^\s*(\S+): OK \(([\d.]+)=setup\[([\d.]+)\]")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _modules(junit: Path) -> dict[str, dict[str, float]]:
    """``{test module: {"seconds", "tests"}}`` from pytest's JUnit XML."""
    out: dict[str, dict[str, float]] = collections.defaultdict(lambda: {"seconds": 0, "tests": 0})
    if not junit.is_file():
        return {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = (case.get("classname") or "").replace(".", "/") + ".py"
        out[module]["seconds"] += float(case.get("time") or 0)
        out[module]["tests"] += 1
    return dict(out)


def _jax(procs: Path) -> dict[str, float]:
    """The sums of JAX's compile events over every process that wrote a record."""
    total = dict.fromkeys(EVENTS, 0.0) | {"compiles": 0, "processes": 0, "python_cpu_s": 0.0}
    for record in procs.glob("*.json"):
        data = json.loads(record.read_text(encoding="utf-8"))
        total["processes"] += 1
        total["python_cpu_s"] += data["cpu_s"]
        for key, event in EVENTS.items():
            total[key] += data["events"].get(event, 0.0)
        total["compiles"] += data["counts"].get(EVENTS["compile_s"], 0)
    return total


def profile(env: str, tox: list[str], out: Path) -> dict[str, object]:
    where = out / env
    procs = where / "processes"
    procs.mkdir(parents=True, exist_ok=True)
    for old in procs.glob("*.json"):
        old.unlink()
    junit = where / "junit.xml"
    junit.unlink(missing_ok=True)
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(HOOK), environ.get("PYTHONPATH")) if p)
    environ["JAXCB_PROFILE_DIR"] = str(procs)
    environ["PYTEST_ADDOPTS"] = f"{environ.get('PYTEST_ADDOPTS', '')} --junitxml={junit}".strip()
    command = [*tox, "run", "-e", env, "-x", "testenv.pass_env+=PYTHONPATH"]
    cpu, start = _children_cpu(), time.monotonic()
    with (where / "tox.log").open("w", encoding="utf-8") as log:
        done = subprocess.run(command, cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT)
    wall, cpu = time.monotonic() - start, _children_cpu() - cpu
    setup = None
    for line in (where / "tox.log").read_text(encoding="utf-8", errors="replace").splitlines():
        m = _SETUP.match(line)
        if m and m.group(1) == env:
            setup = float(m.group(3))
    return {
        "env": env,
        "returncode": done.returncode,
        "wall_s": wall,
        "cpu_s": cpu,
        "setup_s": setup,
        "jax": _jax(procs),
        "modules": _modules(junit),
    }


def _table(results: list[dict[str, object]], top: int) -> str:
    lines = [
        "| env | wall | CPU | tox's install | JAX: trace / lower / XLA compile (compiles) |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        j: dict[str, float] = r["jax"]  # type: ignore[assignment]
        setup = "" if r["setup_s"] is None else f"{r['setup_s']:.0f} s"
        jax_part = (
            f"{j['trace_s']:.0f} / {j['lower_s']:.0f} / {j['compile_s']:.0f} s "
            f"({int(j['compiles']):,})"
            if j["compiles"]
            else ""
        )
        red = "" if r["returncode"] == 0 else " (failed)"
        lines.append(
            f"| {r['env']}{red} | {r['wall_s']:.0f} s | {r['cpu_s']:.0f} s | {setup} | {jax_part} |"
        )
    for r in results:
        modules: dict[str, dict[str, float]] = r["modules"]  # type: ignore[assignment]
        if not modules:
            continue
        ranked = sorted(modules.items(), key=lambda kv: -kv[1]["seconds"])[:top]
        lines += ["", f"{r['env']}, the slowest test modules (wall, tests):", ""]
        lines += [f"- `{m}`: {v['seconds']:.0f} s, {int(v['tests']):,}" for m, v in ranked]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/dev profile", description=__doc__.split("\n")[0])
    parser.add_argument("-e", dest="envs", default=",".join(DEFAULT_ENVS), help="env1,env2,...")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts" / "profile")
    parser.add_argument("--top", type=int, default=8, help="test modules listed per env")
    parser.add_argument("tox", nargs="+", help="the tox command, after --")
    args = parser.parse_args(argv)
    results = []
    for env in args.envs.split(","):
        print(f"profiling {env} ...", file=sys.stderr, flush=True)
        results.append(profile(env, args.tox, args.out))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "profile.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(_table(results, args.top))
    return 0 if all(r["returncode"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
