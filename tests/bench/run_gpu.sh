#!/usr/bin/env bash
# Run the jaxcb matrix and benchmarks on a CUDA machine, importing the packages from source.
#
#   tests/bench/run_gpu.sh [pytest args for the benchmarks]
#
# Needs: Python >= 3.11 with jax[cuda12], numpy, scipy, pytest, pytest-benchmark, and the
# core's own dependencies pydantic and rich (the jaxcb packages themselves are NOT
# installed: they are imported from packages/*/src). jaxcb-ffi is left out: its C++
# handlers are built when the package is installed, and they are CPU handlers.
# Writes docs/data/matrix/<jax>-gpu-<n>.json (or into $JAXCB_MATRIX_OUT) and
# docs/data/bench/gpu-<device kind>.json (or into $JAXCB_BENCH_OUT); commit them and the
# site's GPU columns fill. Stops at once, saying so, without a GPU or a dependency.
#
# discover() finds mechanisms through entry points, which PYTHONPATH alone does not
# provide: the script writes a minimal .dist-info per package (name, version, entry
# points, read from its pyproject.toml) into a temporary directory on PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON="${PYTHON:-python3}"
PACKAGES=(jaxcb-core jaxcb-native jaxcb-pure jaxcb-io jaxcb-debug jaxcb-buffer)

meta="$(mktemp -d)"
trap 'rm -rf "$meta"' EXIT
"$PYTHON" - "$meta" "${PACKAGES[@]}" <<'PY'
import pathlib
import sys
import tomllib

out = pathlib.Path(sys.argv[1])
for package in sys.argv[2:]:
    project = tomllib.loads(pathlib.Path("packages", package, "pyproject.toml").read_text())["project"]
    info = out / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    lines = []
    for group, entries in project.get("entry-points", {}).items():
        lines += [f"[{group}]", *(f"{k} = {v}" for k, v in entries.items()), ""]
    (info / "entry_points.txt").write_text("\n".join(lines))
PY

src=""
for package in "${PACKAGES[@]}"; do
  src="$src:packages/$package/src"
done
export PYTHONPATH="$meta$src${PYTHONPATH:+:$PYTHONPATH}"
export JAXCB_BENCH_BACKEND="${JAXCB_BENCH_BACKEND:-cuda}"
export MPLBACKEND=Agg

"$PYTHON" - <<'PY'
import importlib.util, sys
missing = [m for m in ("jax", "numpy", "scipy", "pytest", "pytest_benchmark", "pydantic", "rich")
           if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"run_gpu.sh: missing Python packages: {', '.join(missing)}")
import jax
if jax.default_backend() != "gpu":
    sys.exit(f"run_gpu.sh: JAX runs on {jax.default_backend()!r}, not a GPU ({jax.devices()})")
print("jaxcb gpu: JAX", jax.__version__, jax.devices())
PY
out="${JAXCB_MATRIX_OUT:-docs/data/matrix}"
stem="$("$PYTHON" -c "from jaxcb_core import environment, schema; print(schema.matrix_stem(environment.describe()))")"
"$PYTHON" -m jaxcb_core.cli matrix --write --output "$out/$stem.json"
"$PYTHON" -m pytest tests/bench -m bench --benchmark-only -p no:cacheprovider "$@"
