"""Other projects' tools beside this site's recipes, from the benchmarks' tools suite: a
progress report per step of a scan, a check that passes, ``copy_to_host_async``. Only the
files that ran the suite have these tables (files from before it do not)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from jaxcb_core.bench import Device

from .perfformat import NOT_MEASURED_READER, cell, fmt_count, fmt_ratio, fmt_time, per_device, table

# The progress-bar table is on the recipes page too, in both languages.
NOT_MEASURED_ZH = "**未测量**：还没有 GPU 运行过这些基准测试。"


def _measured_on(d: Device, lang: str = "en") -> str:
    e = d.env
    if lang == "zh":
        return (
            f"在 {e.processor} 上用 JAX {e.jax} 测得（{e.device_count} 个 {d.kind} 设备，"
            f"{e.process_count} 个进程），{e.date}。"
        )
    return (
        f"Measured with JAX {e.jax} on {e.processor} ({e.device_count} {d.kind} device, "
        f"{e.process_count} process), {e.date}."
    )


def _tools(comp: str) -> Callable[[Device], bool]:
    """Whether a file measured ``comp`` in the tools suite (files from before it did not)."""
    return lambda d: comp in d.computations("tools")


def _progress_bars(d: Device, lang: str = "en") -> str:
    (steps,) = d.sizes("tools", "progress")
    native = next(v for v in d.columns("tools", "progress") if d.variants[v].role == "native")
    base = d.t("tools", "progress", native, steps)
    assert base is not None
    rows = []
    for v in d.columns("tools", "progress"):
        r = d.get("tools", "progress", v, steps)
        if r is None:
            continue
        added = "–" if v == native else fmt_time(max(r.median_s - base, 0.0) / steps)
        calls = "–" if r.host_calls is None else f"{r.host_calls:,}"
        rows.append([d.label(v), calls, cell(r), added])
    if lang == "zh":
        return (
            f"一个 {steps:,} 步的 `lax.scan`，一次 jit 调用，循环体中带一个进度报告；“每步增加”"
            f"是循环的时间减去不带报告的同一循环的时间，再除以它的 {steps:,} 步。"
            f"{_measured_on(d, lang)}\n\n"
            + table(["列", "单个循环的主机调用次数", "单个循环的时间", "每步增加"], rows)
        )
    return (
        f"A `lax.scan` of {steps:,} steps, one jitted call, with a progress report in its "
        "body; “added per step” is the loop's time minus the same loop with no report, "
        f"divided by its {steps:,} steps. {_measured_on(d)}\n\n"
        + table(["column", "host calls per loop", "time per loop", "added per step"], rows)
    )


def sec_progress_bars(lang: str = "en") -> str:
    """The progress recipe beside jax-tqdm: what a report costs per step of a jitted scan."""
    missing = NOT_MEASURED_ZH if lang == "zh" else NOT_MEASURED_READER
    return per_device(functools.partial(_progress_bars, lang=lang), missing, _tools("progress"))


def _beside_native(d: Device, comp: str, intro: str, ratio: str) -> str:
    """One tools row per column, its time at each size and its ratio to the native column."""
    sizes = d.sizes("tools", comp)
    columns = d.columns("tools", comp)
    native = next(v for v in columns if d.variants[v].role == "native")
    rows = []
    for v in columns:
        row = [d.label(v)]
        for n in sizes:
            r, base = d.get("tools", comp, v, n), d.t("tools", comp, native, n)
            row.append(cell(r))
            if v != native:
                ok = r is not None and base is not None
                row.append(fmt_ratio(r.median_s / base) if ok else "–")  # type: ignore[union-attr]
            else:
                row.append("–")
        rows.append(row)
    head = ["column"]
    for n in sizes:
        head += [f"time, n = {fmt_count(n)}", f"÷ {ratio}, n = {fmt_count(n)}"]
    return f"{intro} {_measured_on(d)}\n\n" + table(head, rows)


def _checks(d: Device) -> str:
    return _beside_native(
        d,
        "checked_sqrt",
        "`jnp.sqrt(x)` under `jax.jit` after a check that `x` is not negative, on float32 "
        "inputs that pass it.",
        "no check",
    )


def _host_copy(d: Device) -> str:
    return _beside_native(
        d,
        "host_copy",
        "A jitted function's three float32 results of `n` elements each, read into NumPy "
        "with `np.asarray`, with `copy_to_host_async()` called on each first and without. "
        "On a CPU the results are in host memory already: the table shows what the calls "
        "change there, not what they can buy on an accelerator.",
        "without",
    )


def sec_checks() -> str:
    """checkify and equinox's error_if: what a check that passes costs at run time."""
    return per_device(_checks, NOT_MEASURED_READER, _tools("checked_sqrt"))


def sec_host_copy() -> str:
    """copy_to_host_async before reading results: what it costs, per CPU file."""
    return per_device(_host_copy, NOT_MEASURED_READER, _tools("host_copy"))
