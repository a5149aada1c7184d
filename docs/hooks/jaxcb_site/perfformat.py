"""What every section of the performance page shares: the formats of its numbers, its
tables, and one content tab per device file (:func:`per_device`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from jaxcb_core.bench import Device
from jaxcb_core.schema import BenchResult

from . import data
from .perfwords import count, say
from .render import esc, tabs

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


def fmt_crossover(result: tuple[str, float | None], sizes: list[int], lang: str = "en") -> str:
    what, value = result
    if what == "below":
        return f"≤ {fmt_count(sizes[0])}"
    if what == "above":
        assert value is not None
        return say(lang, "still", n=fmt_count(sizes[-1]), ratio=fmt_ratio(value))
    assert value is not None
    return fmt_approx(value)


def cell(r: BenchResult | None, lang: str = "en") -> str:
    """A time with its spread in a tooltip."""
    if r is None:
        return "–"
    tip = say(lang, "tip", rounds=r.rounds, iqr=fmt_time(r.iqr_s))
    if r.host_calls is not None:
        tip += say(lang, "tip-calls", calls=r.host_calls)
    if r.page_faults is not None:
        tip += say(lang, "tip-faults", faults=r.page_faults)
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
    missing_gpu: str | None = None,
    measured: Callable[[Device], bool] | None = None,
    lang: str = "en",
) -> str:
    """One tab per device file (a GPU tab that says it is not measured, where none is:
    ``missing_gpu``, by default the words ``not-measured`` in ``lang``); with ``measured``,
    only the files it accepts (those that ran a later suite, say)."""
    devs = [d for d in devices() if measured is None or measured(d)]
    if not devs:
        return say(lang, "none-measured")
    if missing_gpu is None:
        missing_gpu = say(lang, "not-measured")
    titled = measured is not None or len(devs) > 1  # a reader's page names the processor
    blocks = [(d.title if titled else d.kind, fn(d)) for d in devs]
    if not any(d.kind == "GPU" for d in devs):
        blocks.append(("GPU", missing_gpu))
    return tabs(blocks)


def plural(n: int, word: str, lang: str = "en") -> str:
    """``3 devices``; in Chinese ``3 个设备`` (``word``: device, process, target)."""
    return count(lang, n, word)
