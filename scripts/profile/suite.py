"""Where the suite's time goes: each tox environment run alone, profiled.

``scripts/dev profile [-e ENV,...] [--out DIR]`` runs here. For each environment (by default
those of ``scripts/dev test``), one after the other so that none slows another:

- the install, on its own: ``tox run --notest`` (creating the environment where it is
  missing, downloading what the uv cache lacks; a second or two where it is built);
- the tests: the wall time and the CPU time of everything they started (``getrusage`` of the
  children: tox, pytest, the matrix's workers, subprocesses, the compiler, the browser);
- what every Python of the environment spent in JAX's compile steps, read from
  ``jax.monitoring`` by ``hook.py`` (run by a ``.pth`` file put in the environment's
  site-packages for the run, and taken out after): tracing to a jaxpr, lowering to MLIR,
  XLA's backend compile;
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
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOOK = Path(__file__).resolve().parent / "hook.py"
PTH = "_jaxcb_profile.pth"
EVENTS = {
    "trace_s": "/jax/core/compile/jaxpr_trace_duration",
    "lower_s": "/jax/core/compile/jaxpr_to_mlir_module_duration",
    "compile_s": "/jax/core/compile/backend_compile_duration",
}


def _default_envs(tox: list[str]) -> list[str]:
    """The envs ``scripts/dev test`` runs: tox's ``env_list``, as tox itself reads it."""
    listed = subprocess.run(
        [*tox, "list", "--no-desc", "-d", "-qq"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout.split()


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


def _timed(command: list[str], log: Path, environ: dict[str, str]) -> tuple[int, float, float]:
    """``(returncode, wall, CPU of the children)`` of ``command``, its output in ``log``."""
    cpu, start = _children_cpu(), time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(command, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
    return done.returncode, time.monotonic() - start, _children_cpu() - cpu


def _site_packages(env: str) -> list[Path]:
    return sorted((ROOT / ".tox" / env).glob("lib/python3*/site-packages"))


def profile(env: str, tox: list[str], out: Path) -> dict[str, object]:
    where = out / env
    procs = where / "processes"
    procs.mkdir(parents=True, exist_ok=True)
    for old in procs.glob("*.json"):
        old.unlink()
    junit = where / "junit.xml"
    junit.unlink(missing_ok=True)
    environ = dict(os.environ)
    code, install_wall, install_cpu = _timed(
        [*tox, "run", "-e", env, "--notest"], where / "install.log", environ
    )
    line = (
        f"import os; exec(compile(open({str(HOOK)!r}).read(), {str(HOOK)!r}, 'exec'), "
        "{'__name__': '_jaxcb_profile'}) if os.environ.get('JAXCB_PROFILE_DIR') else None\n"
    )
    hooks = [site / PTH for site in _site_packages(env)]
    for pth in hooks:
        pth.write_text(line, encoding="utf-8")
    environ["JAXCB_PROFILE_DIR"] = str(procs)
    environ["PYTEST_ADDOPTS"] = f"{environ.get('PYTEST_ADDOPTS', '')} --junitxml={junit}".strip()
    try:
        if code == 0:
            code, wall, cpu = _timed([*tox, "run", "-e", env], where / "tox.log", environ)
        else:
            wall = cpu = 0.0
    finally:
        for pth in hooks:
            pth.unlink(missing_ok=True)
    return {
        "env": env,
        "returncode": code,
        "install_wall_s": install_wall,
        "install_cpu_s": install_cpu,
        "wall_s": wall,
        "cpu_s": cpu,
        "jax": _jax(procs),
        "modules": _modules(junit),
    }


def _table(results: list[dict[str, object]], top: int) -> str:
    lines = [
        "| env | install: wall, CPU | tests: wall, CPU | of which JAX: trace / lower / XLA "
        "compile (compiles) |",
        "|---|---|---|---|",
    ]
    for r in results:
        j: dict[str, float] = r["jax"]  # type: ignore[assignment]
        jax_part = (
            f"{j['trace_s']:.0f} / {j['lower_s']:.0f} / {j['compile_s']:.0f} s "
            f"({int(j['compiles']):,})"
            if j["compiles"]
            else ""
        )
        red = "" if r["returncode"] == 0 else " (failed)"
        lines.append(
            f"| {r['env']}{red} | {r['install_wall_s']:.0f} s, {r['install_cpu_s']:.0f} s "
            f"| {r['wall_s']:.0f} s, {r['cpu_s']:.0f} s | {jax_part} |"
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
    parser.add_argument("-e", dest="envs", help="env1,env2,... (default: tox's env_list)")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts" / "profile")
    parser.add_argument("--top", type=int, default=8, help="test modules listed per env")
    parser.add_argument("tox", nargs="+", help="the tox command, after --")
    args = parser.parse_args(argv)
    results = []
    envs = args.envs.split(",") if args.envs else _default_envs(args.tox)
    for env in envs:
        print(f"profiling {env} ...", file=sys.stderr, flush=True)
        results.append(profile(env, args.tox, args.out))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "profile.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(_table(results, args.top))
    return 0 if all(r["returncode"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
