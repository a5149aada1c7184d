"""The ``dist-cost`` directive: the timed sharded host calls of the multi-process files.

One table per file (``sharding_cost``, :class:`jaxcb_core.schema.ShardingCost`): each
timed variant × ``n`` under ``jit`` (XLA places the call) and under ``shard_map`` (one
call per shard), the ratio, the host calls per process and what the host got; then one
sentence per variant at its largest ``n`` timed in both forms. A measurement that hung
or died shows its error instead of a time.
"""

from __future__ import annotations

from typing import Any

from .data import Matrix, load_distributed
from .render import esc


def _layout(m: Matrix) -> str:
    e = m.env
    per = e["device_count"] // e["process_count"]
    return f"{e['process_count']} processes × {per} {e['platform'].upper()} devices"


def _where(r: Any, local: int) -> str:
    """Where the host ran under ``jit``, from the per-process host calls and shapes."""
    whole = f"float32[{r.n}]"
    if r.host_calls[0] == 1 and not any(r.host_calls[1:]) and r.shapes[0] == whole:
        return f"the host ran once, in process 0, on the whole array ({whole})"
    if all(c == local for c in r.host_calls) and all(x == whole for x in r.shapes):
        return f"every device's host ran on the whole array ({whole})"
    return f"host calls per process {' · '.join(map(str, r.host_calls))}"


def _ms(seconds: list[float]) -> str:
    return " · ".join(f"{s * 1e3:.2f}" for s in seconds)


def d_cost(src: str) -> str:
    """Per multi-process file: one host call on gathered input under ``jit`` against one
    call per shard under ``shard_map``, timed. With several files, one tab each (newest
    first): the tables are read one JAX at a time."""
    files = load_distributed()
    if len(files) < 2:
        return "\n".join(_cost(m) for m in files)
    tabs = []
    for m in files:
        body = "\n".join(("    " + line) if line else "" for line in _cost(m).split("\n"))
        tabs.append(f'=== "JAX {esc(m.env["jax"])}"\n\n{body}')
    return "\n\n".join(tabs) + "\n"


def _cost(m: Matrix) -> str:
    """One file's table and sentences."""
    parts: list[str] = []
    cost = m.record.sharding_cost
    if cost is None:
        return f"*{m.label}: no timings in this file.*"
    load = (
        f"1-minute load {cost.load_start:.1f} at the start, {cost.load_end:.1f} at the end"
        if cost.load_start is not None and cost.load_end is not None
        else "load not recorded"
    )
    parts.append(
        f"**{m.label}** ({_layout(m)}; median of {cost.repeats} calls after one warm-up, "
        f"per process; {load}; {cost.duration_s:.0f} s of timing)\n"
    )
    rows = [
        "| variant | n | under jit (ms) | under shard_map (ms) | jit ÷ shard_map "
        "| host calls, jit | host calls, shard_map | the host got (jit / shard_map) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    by = {(r.variant, r.form, r.n): r for r in cost.results}
    keys = sorted({(r.variant, r.n) for r in cost.results}, key=lambda k: (k[0], k[1]))
    sentences = []
    for variant, n in keys:
        g, s = by.get((variant, "gathered", n)), by.get((variant, "per_shard", n))
        if g is None or s is None:
            continue
        if g.error or s.error:
            times = [esc(r.error) if r.error else _ms(r.median_s) for r in (g, s)]
            rows.append(f"| `{variant}` | {n} | {times[0]} | {times[1]} | | | | |")
            continue
        ratio = max(g.median_s) / max(s.median_s)
        got = f"{', '.join(x or '–' for x in g.shapes)} / {', '.join(x or '–' for x in s.shapes)}"
        rows.append(
            f"| `{variant}` | {n} | {_ms(g.median_s)} | {_ms(s.median_s)} | {ratio:.1f}× | "
            f"{' · '.join(map(str, g.host_calls))} | {' · '.join(map(str, s.host_calls))} | {got} |"
        )
    for variant in sorted({r.variant for r in cost.results}):
        done = [k for k in keys if k[0] == variant]
        ok = [
            n
            for _, n in done
            if not by[(variant, "gathered", n)].error and not by[(variant, "per_shard", n)].error
        ]
        if not ok:
            sentences.append(f"- `{variant}`: no size was timed in both forms.")
            continue
        n = max(ok)
        g, s = by[(variant, "gathered", n)], by[(variant, "per_shard", n)]
        ratio = max(g.median_s) / max(s.median_s)
        failed = [k[1] for k in done if k[1] not in ok]
        tail = f"; no timing from n = {min(failed)} on" if failed else ""
        where = _where(g, m.env["device_count"] // m.env["process_count"])
        sentences.append(
            f"- `{variant}`: under `jit` {where}. At n = {n} that took "
            f"{max(g.median_s) * 1e3:.2f} ms, against {max(s.median_s) * 1e3:.2f} ms for "
            f"one call per shard under `shard_map` ({ratio:.1f}× "
            f"{'slower' if ratio >= 1 else 'faster'}){tail}."
        )
    parts += ["\n".join(rows), "", "\n".join(sentences), ""]
    return "\n".join(parts)
