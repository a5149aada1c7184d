#!/usr/bin/env bash
# Run the jaxcb benchmarks on a CUDA machine, importing the packages from source.
#
#   tests/bench/run_gpu.sh [pytest args]
#
# Needs: Python >= 3.11 with jax[cuda12], numpy, scipy, pytest, pytest-benchmark (the
# packages themselves are NOT installed: they are imported from packages/*/src).
# Writes docs/data/bench/gpu-<device kind>.json (or into $JAXCB_BENCH_OUT); commit it
# and the performance page shows the GPU column. Stops at once, saying so, without a GPU.
#
# discover() finds mechanisms through entry points, which PYTHONPATH alone does not
# provide: the script writes a minimal .dist-info per package (name, version, entry
# points, read from its pyproject.toml) into a temporary directory on PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON="${PYTHON:-python3}"
PACKAGES=(jaxcb-core jaxcb-native jaxcb-pure jaxcb-io jaxcb-debug)

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

"$PYTHON" -c "import jax; print('jaxcb bench: JAX', jax.__version__, jax.devices())"
"$PYTHON" -m pytest tests/bench -m bench --benchmark-only -p no:cacheprovider "$@"
