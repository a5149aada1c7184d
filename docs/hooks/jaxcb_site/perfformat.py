"""What every section of the performance page shares: the formats of its numbers, its
tables, and one content tab per device file (:func:`per_device`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from jaxcb_core.bench import Device
from jaxcb_core.schema import BenchResult

from . import data
from .render import esc, tabs

NOT_MEASURED = (
    "**Not measured**: no GPU has run these benchmarks yet, so this page has no GPU "
    "number. On a machine with an NVIDIA GPU, `tox -e bench-cuda12` (or "
    "`tests/bench/run_gpu.sh`, which imports the packages from source) writes "
    "`docs/data/bench/gpu-<device kind>.json`; committed, it fills this tab."
)


#: the same, for a reader's page (no commands, no file names)
NOT_MEASURED_READER = "**Not measured**: no GPU has run these benchmarks yet."


NO_DATA = (
    '!!! warning "No benchmark data"\n\n'
    "    `docs/data/bench/` holds no data file yet. Run `tox -e bench` and commit the "
    "JSON file it writes."
)

# ---------------------------------------------------------------------------- formats

_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def fmt_time(s: float) -> str:
    """Seconds, three significant digits: ``183 µs``, ``4.25 ms``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def fmt_ratio(r: float) -> str:
    return f"×{r:.3g}" if r < 1000 else f"×{r:,.0f}"


def fmt_count(n: int) -> str:
    if n >= 100 and 10 ** round(math.log10(n)) == n:
        return f"10{str(round(math.log10(n))).translate(_SUP)}"
    return f"{n:,}"


def fmt_size(comp: str, n: int) -> str:
    if comp == "expm":
        m = math.isqrt(n)
        return f"{m}×{m}"
    return fmt_count(n)


def fmt_approx(x: float) -> str:
    """``≈ 4.4 × 10⁵``: two significant digits."""
    e = math.floor(math.log10(x))
    m = x / 10**e
    if round(m, 1) >= 10:
        m, e = m / 10, e + 1
    if e < 1:
        return f"≈ {x:.2g}"
    if e < 3:
        return f"≈ {round(x, 1 - e):,.0f}"
    return f"≈ {m:.2g} × 10{str(e).translate(_SUP)}"


def fmt_crossover(result: tuple[str, float | None], sizes: list[int]) -> str:
    what, value = result
    if what == "below":
        return f"≤ {fmt_count(sizes[0])}"
    if what == "above":
        assert value is not None
        return f"> {fmt_count(sizes[-1])} (still {fmt_ratio(value)})"
    assert value is not None
    return fmt_approx(value)


def cell(r: BenchResult | None) -> str:
    """A time with its spread in a tooltip."""
    if r is None:
        return "–"
    tip = f"median of {r.rounds} rounds; IQR {fmt_time(r.iqr_s)}"
    if r.host_calls is not None:
        tip += f"; {r.host_calls} host call(s) per call"
    if r.page_faults is not None:
        tip += f"; {r.page_faults:,} page faults per call"
    return f'<span title="{esc(tip)}">{fmt_time(r.median_s)}</span>'


def table(header: list[str], rows: Iterable[list[str]], align: str | None = None) -> str:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([":--"] + [align or "--:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- devices


def devices() -> list[Device]:
    return [Device(f) for f in data.bench_files()]


def per_device(
    fn: Callable[[Device], str],
    missing_gpu: str = NOT_MEASURED,
    measured: Callable[[Device], bool] | None = None,
) -> str:
    """One tab per device file (a GPU tab that says it is not measured, where none is);
    with ``measured``, only the files it accepts (those that ran a later suite, say)."""
    devs = [d for d in devices() if measured is None or measured(d)]
    if not devs:
        return "Not measured yet: no benchmark run on any machine has measured this."
    titled = measured is not None or len(devs) > 1  # a reader's page names the processor
    blocks = [(d.title if titled else d.kind, fn(d)) for d in devs]
    if not any(d.kind == "GPU" for d in devs):
        blocks.append(("GPU", missing_gpu))
    return tabs(blocks)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
