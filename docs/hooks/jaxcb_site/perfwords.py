"""The words of the performance sections (``perfsummary.py``, ``perftables.py``,
``perftools.py``, ``perfformat.py``), in each language of the site.

Each section takes the page's language (``lang``, from :func:`.i18n.language` of the page's
path: ``perf.directive`` passes it) and writes its sentences, captions and table headings
from ``WORDS[lang]``; the numbers, units and API names stay as the data gives them, and a
benchmark's label is translated part by part (:func:`label`). A template's ``{fields}`` are filled by :func:`say`. The Chinese words follow
the terms of ``docs/performance.zh.md`` and ``docs/learn/glossary.zh.md``: 基准 (floor),
最小形式 (minimal form), 空操作 (no-op), 往返 (round trip), 交叉点 (crossover).
``tests/docs/test_perf_zh.py`` checks that a Chinese page shows none of the English ones.
"""

from __future__ import annotations

import re
from typing import Any

WORDS: dict[str, dict[str, str]] = {
    "en": {
        # lists and small words
        "sep": ", ",
        "name-sep": ", ",
        "semi": "; ",
        "still": "> {n} (still {ratio})",
        "device": "device",
        "process": "process",
        "target": "target",
        # missing data
        "no-data": (
            '!!! warning "No benchmark data"\n\n'
            "    `docs/data/bench/` holds no data file yet. Run `tox -e bench` and commit the "
            "JSON file it writes."
        ),
        "not-measured": (
            "**Not measured**: no GPU has run these benchmarks yet, so this page has no GPU "
            "number. On a machine with an NVIDIA GPU, `tox -e bench-cuda12` (or "
            "`tests/bench/run_gpu.sh`, which imports the packages from source) writes "
            "`docs/data/bench/gpu-<device kind>.json`; committed, it fills this tab."
        ),
        "not-measured-reader": "**Not measured**: no GPU has run these benchmarks yet.",
        "none-measured": "Not measured yet: no benchmark run on any machine has measured this.",
        # a time's tooltip
        "tip": "median of {rounds} rounds; IQR {iqr}",
        "tip-calls": "; {calls} host call(s) per call",
        "tip-faults": "; {faults:,} page faults per call",
        # what to pick
        "pick-hot": (
            "**Called often on small arrays** (a hot path): `{mech}` has the lowest fixed "
            "cost, {time} per call ({ratio} a jitted native no-op); "
            "`{slow}` the highest, {slow_time}."
        ),
        "pick-large": (
            "**Large arrays, {comp}** (host work dominates): {label} comes "
            "closest to the floor, {ratio} {floor} at {n}."
        ),
        "pick-loop": (
            "**Inside a loop**: every step that reaches the host adds {time} "
            "with `{mech}`, the least of the mechanisms measured; "
            "sending the stacked states once at the end, or every k-th step, costs less "
            "(the loops table)."
        ),
        "pick-vmap": "**Under vmap**: ",
        "pick-vmap-one": "{names} make one host call per batch",
        "pick-vmap-many": "{names} one per element",
        "pick-vmap-end": " (measured at the largest batch).",
        # the findings
        "find-fixed-item": "`{mech}` {time} ({ratio})",
        "find-fixed": (
            "**Fixed cost of one round trip** (a no-op on one float32 element): {parts}; a jitted "
            "native no-op, the dispatch floor, takes {base}."
        ),
        "find-missed": (
            "**{where}**: the fastest pattern, {label}, is still {ratio} {floor} — {detail}."
        ),
        "find-met": "**{where}**: {label} runs at {ratio} {floor}.",
        "find-scan-item": "`{mech}` {time}",
        "find-scan": "**In a {steps:,}-step `lax.scan`**, one round trip per step adds: {parts}.",
        "find-cross-item": "`{mech}` from n {at}",
        "find-cross": (
            "**Crossover** (`sin_scale`, minimal forms): the fixed per-call cost stops dominating "
            "(a call takes {x:g}× its one-element time) {items}."
        ),
        "find-load": "**Measured under load** ({load}): see the warning under *Devices*.",
        "find-fresh": (
            "**A fresh output buffer** (`sin_scale`, n = {n}): XLA gives each call "
            "a new result buffer, and the first write to each of its memory pages is a page "
            "fault. The `{mech}` pattern takes {pattern} with "
            "{faults:,} page faults per call, NumPy into a preallocated array "
            "{into}; the bare `{mech}` writing into its donated "
            "input instead (`input_output_aliases`) takes {in_place} "
            "({ratio} NumPy into) with "
            "{in_place_faults:,} page faults."
        ),
        # the devices
        "dev-head": "|device|machine|JAX|Python|backend|date|bench run",
        "dev-machine": "{cores} cores, {machine}, {simd}; {blas}",
        "dev-no-simd": "vector width not recorded",
        "dev-jax": "JAX {jax}, jaxlib {jaxlib}",
        "dev-python": "Python {python}, NumPy {numpy}, SciPy {scipy}",
        "dev-backend": "{backend}, {devices}, {processes}",
        "dev-run": "{minutes:.1f} min; load {load}",
        "dev-gpu": "not measured",
        "dev-busy": (
            '!!! warning "{title}: measured on a busy machine"\n\n'
            "    The 1-minute load average was {load}, above {quiet} on "
            "{cores} cores: other work shared the cores, and callback timings on a "
            "busy machine can double. Treat these numbers as an upper bound."
        ),
        "dev-drift": (
            '!!! warning "{title}: timings drifted during the run"\n\n'
            "    The same calls timed by the benchmark harness and by a bare "
            "`perf_counter` loop, in alternate rounds, differed by up to "
            "{drift:.2f}× ({within} of {checks} within {margin:g}×), "
            "though the machine was quiet by its load. This machine's speed moved during "
            "the run: compare this file's ratios with that margin in mind."
        ),
        # one call, one element
        "headline-alt": "What one call costs, per mechanism",
        "headline-head": "sin_scale, 1 element|time per call|÷ NumPy floor|host calls",
        # every computation
        "calls-median": (
            "Median time per jitted call (hover a cell for the IQR, rounds and host calls):"
        ),
        "calls-ratio": "The same ÷ the NumPy floor on the same data:",
        "calls-head": "computation · n",
        # the size sweep
        "sizes-alt": "sin_scale: time per call against n, log-log",
        "sizes-text": (
            "**Crossovers**, interpolated log-log between the measured sizes. *Fixed cost "
            "stops dominating*: the size from which a call takes at least {x:g}× its "
            "one-element time, so that the fixed per-call overhead is at most half of it. "
            "*≤ {x:g}× floor*: the size from which a call costs at most "
            "{x:g}× the NumPy floor on the same data."
        ),
        "sizes-head": (
            "sin_scale|time at n = 1|fixed cost stops dominating at n|≤ {x:g}× floor from n"
        ),
        # vmap
        "vmap-alt": "vmap: time per batch against batch size",
        "vmap-title": "**{comp}** — time per batch · host calls per batch:",
        "vmap-head": "batch",
        # loops, gradients, eager calls
        "loops-row": "{comp} · {steps:,} steps",
        "loops-text": "The native scan takes {base}; every other row, minus that, ÷ its steps:",
        "loops-head": "loop|variant|host calls|time per loop|added per step|÷ native scan",
        "grad-head": "case|variant|time|÷ native|host calls",
        "eager-head": "computation|variant|eager call|jitted call|eager ÷ jitted|host calls",
        # other code beside the patterns and recipes
        "seeds-row": "{comp} · {suite} {n}",
        "seeds-head": (
            "case|source text|its code|jaxcb pattern|its code ÷ pattern|host calls (its / pattern)"
        ),
        "suite-calls": "calls",
        "suite-vmap": "vmap",
        "suite-grad": "grad",
        "measured-on": (
            "Measured with JAX {jax} on {processor} ({devices} {kind} device, "
            "{processes} process), {date}."
        ),
        "progress-text": (
            "A `lax.scan` of {steps:,} steps, one jitted call, with a progress report in its "
            "body; “added per step” is the loop's time minus the same loop with no report, "
            "divided by its {steps:,} steps. {measured}"
        ),
        "progress-head": "column|host calls per loop|time per loop|added per step",
        "tools-column": "column",
        "tools-time": "time, n = {n}",
        "tools-ratio": "÷ {ratio}, n = {n}",
        "checks-text": (
            "`jnp.sqrt(x)` under `jax.jit` after a check that `x` is not negative, on float32 "
            "inputs that pass it."
        ),
        "checks-ratio": "no check",
        "host-copy-text": (
            "A jitted function's three float32 results of `n` elements each, read into NumPy "
            "with `np.asarray`, with `copy_to_host_async()` called on each first and without. "
            "On a CPU the results are in host memory already: the table shows what the calls "
            "change there, not what they can buy on an accelerator."
        ),
        "host-copy-ratio": "without",
    },
    "zh": {
        "sep": "，",
        "name-sep": "、",
        "semi": "；",
        "still": "> {n}（仍为 {ratio}）",
        "device": "个设备",
        "process": "个进程",
        "target": "个目标",
        "no-data": (
            '!!! warning "没有基准数据"\n\n'
            "    `docs/data/bench/` 中还没有数据文件。运行 `tox -e bench`，并提交它写出的 JSON 文件。"
        ),
        "not-measured": (
            "**未测量**：还没有 GPU 运行过这些基准测试，所以本页没有 GPU 的数字。在带有 NVIDIA GPU "
            "的机器上，`tox -e bench-cuda12`（或者从源码导入各个包的 `tests/bench/run_gpu.sh`）会写出 "
            "`docs/data/bench/gpu-<device kind>.json`；提交之后，这个标签页就有了数据。"
        ),
        "not-measured-reader": "**未测量**：还没有 GPU 运行过这些基准测试。",
        "none-measured": "尚未测量：还没有哪台机器上的基准运行测量过这一项。",
        "tip": "{rounds} 轮的中位数；四分位距 {iqr}",
        "tip-calls": "；一次调用中主机调用 {calls} 次",
        "tip-faults": "；一次调用缺页 {faults:,} 次",
        "pick-hot": (
            "**在小数组上频繁调用**（热路径）：`{mech}` 的固定开销最低，一次调用 {time}"
            "（编译后的原生空操作的 {ratio}）；`{slow}` 最高，{slow_time}。"
        ),
        "pick-large": (
            "**大数组，{comp}**（主机上的工作占主导）：{label} 最接近基准，在 {n} 时为 {floor}的 {ratio}。"
        ),
        "pick-loop": (
            "**在循环中**：用 `{mech}` 时，经过主机的一步增加 {time}，在测量的各机制中最少；"
            "在结束时一次送出堆叠的状态，或者隔 k 步送出一次，开销更小（见循环表）。"
        ),
        "pick-vmap": "**在 vmap 下**：",
        "pick-vmap-one": "{names} 一批调用一次主机",
        "pick-vmap-many": "{names} 一个元素调用一次",
        "pick-vmap-end": "（在最大的批上测得）。",
        "find-fixed-item": "`{mech}` {time}（{ratio}）",
        "find-fixed": (
            "**一趟往返的固定开销**（一个 float32 元素上的空操作）：{parts}；编译后的原生空操作，"
            "即派发下限，用时 {base}。"
        ),
        "find-missed": "**{where}**：最快的模式 {label} 仍为 {floor}的 {ratio}——{detail}。",
        "find-met": "**{where}**：{label} 为 {floor}的 {ratio}。",
        "find-scan-item": "`{mech}` {time}",
        "find-scan": "**在 {steps:,} 步的 `lax.scan` 中**，一步一趟往返增加：{parts}。",
        "find-cross-item": "`{mech}` 从 n {at} 起",
        "find-cross": (
            "**交叉点**（`sin_scale`，最小形式）：单次调用的固定开销不再占主导"
            "（一次调用的时间达到其单元素时间的 {x:g}×）：{items}。"
        ),
        "find-load": "**在负载下测得**（{load}）：见*设备*一节下的警告。",
        "find-fresh": (
            "**新的输出缓冲区**（`sin_scale`，n = {n}）：XLA 为各次调用分配一块新的结果缓冲区，"
            "第一次写入它的一个内存页是一次缺页异常。`{mech}` 模式用时 {pattern}，"
            "一次调用缺页 {faults:,} 次，NumPy 写入事先分配好的数组用时 {into}；"
            "而裸 `{mech}` 改为写入它被捐赠的输入（`input_output_aliases`），用时 {in_place}"
            "（NumPy 写入的 {ratio}），缺页 {in_place_faults:,} 次。"
        ),
        "dev-head": "|设备|机器|JAX|Python|后端|日期|基准运行",
        "dev-machine": "{cores} 核，{machine}，{simd}；{blas}",
        "dev-no-simd": "未记录向量宽度",
        "dev-jax": "JAX {jax}，jaxlib {jaxlib}",
        "dev-python": "Python {python}，NumPy {numpy}，SciPy {scipy}",
        "dev-backend": "{backend}，{devices}，{processes}",
        "dev-run": "{minutes:.1f} 分钟；负载：{load}",
        "dev-gpu": "未测量",
        "dev-busy": (
            '!!! warning "{title}：在繁忙的机器上测得"\n\n'
            "    运行时的负载（{load}）高于 {cores} 个核心上的安静阈值 {quiet}：其他工作占用了这些核心，"
            "而在繁忙的机器上，回调的计时可能翻倍。请把这些数字当作上限。"
        ),
        "dev-drift": (
            '!!! warning "{title}：运行期间计时发生了漂移"\n\n'
            "    同样的调用由基准测量框架和一个裸 `perf_counter` 循环交替轮次计时，两者相差最多 "
            "{drift:.2f}×（{checks} 个中有 {within} 个在 {margin:g}× 以内），尽管按负载看机器是安静的。"
            "这台机器的速度在运行期间发生了变化：比较这个文件的比值时，请考虑这一误差范围。"
        ),
        "headline-alt": "一次调用的开销，按机制",
        "headline-head": "sin_scale，1 个元素|单次调用的时间|÷ NumPy 基准|主机调用次数",
        "calls-median": "jit 调用的单次中位时间（把鼠标悬停在单元格上，可以看到四分位距、轮数和主机调用次数）：",
        "calls-ratio": "同样的时间 ÷ 同一数据上的 NumPy 基准：",
        "calls-head": "计算 · n",
        "sizes-alt": "sin_scale：单次调用的时间随 n 的变化，双对数坐标",
        "sizes-text": (
            "**交叉点**，在测量的尺寸之间按双对数插值。*固定开销不再占主导*：从这个尺寸起，"
            "一次调用的时间至少是其单元素时间的 {x:g}×，因此单次调用的固定开销至多占一半。"
            "*≤ {x:g}× 基准*：从这个尺寸起，一次调用的开销至多是同一数据上 NumPy 基准的 {x:g}×。"
        ),
        "sizes-head": "sin_scale|n = 1 时的时间|固定开销不再占主导的 n|≤ {x:g}× 基准的起始 n",
        "vmap-alt": "vmap：单批的时间随批大小的变化",
        "vmap-title": "**{comp}**——单批的时间 · 单批的主机调用次数：",
        "vmap-head": "批大小",
        "loops-row": "{comp} · {steps:,} 步",
        "loops-text": "原生 scan 用时 {base}；其他各行减去它，再除以各自的步数：",
        "loops-head": "循环|变体|主机调用次数|单个循环的时间|每步增加|÷ 原生 scan",
        "grad-head": "用例|变体|时间|÷ 原生|主机调用次数",
        "eager-head": "计算|变体|即时调用|jit 调用|即时 ÷ jit|主机调用次数",
        "seeds-row": "{comp} · {suite} {n}",
        "seeds-head": "用例|源文本|它的代码|jaxcb 模式|它的代码 ÷ 模式|主机调用次数（它的 / 模式）",
        "suite-calls": "单次调用",
        "suite-vmap": "vmap",
        "suite-grad": "grad",
        "measured-on": (
            "在 {processor} 上用 JAX {jax} 测得（{devices} 个 {kind} 设备，{processes} 个进程），{date}。"
        ),
        "progress-text": (
            "一个 {steps:,} 步的 `lax.scan`，一次 jit 调用，循环体中带一个进度报告；“每步增加”"
            "是循环的时间减去不带报告的同一循环的时间，再除以它的 {steps:,} 步。{measured}"
        ),
        "progress-head": "列|单个循环的主机调用次数|单个循环的时间|每步增加",
        "tools-column": "列",
        "tools-time": "时间，n = {n}",
        "tools-ratio": "÷ {ratio}，n = {n}",
        "checks-text": (
            "`jnp.sqrt(x)` 在 `jax.jit` 下运行，之前先检查 `x` 不为负，输入是能通过检查的 float32。"
        ),
        "checks-ratio": "不检查",
        "host-copy-text": (
            "一个 jit 函数的三个 float32 结果，各有 `n` 个元素，用 `np.asarray` 读入 NumPy："
            "一种先对各个结果调用 `copy_to_host_async()`，一种不调用。在 CPU 上，结果本来就在主机内存中："
            "这张表显示的是这些调用在 CPU 上带来的变化，而不是它们在加速器上能换来的收益。"
        ),
        "host-copy-ratio": "不调用",
    },
}


def say(lang: str, key: str, **fields: Any) -> str:
    """The words ``key`` in ``lang`` (``en`` or ``zh``), their ``{fields}`` filled in."""
    return WORDS[lang][key].format(**fields)


def head(lang: str, key: str, **fields: Any) -> list[str]:
    """A table's headings, written ``a|b|c`` in ``WORDS``."""
    return say(lang, key, **fields).split("|")


def count(lang: str, n: int, word: str) -> str:
    """``3 devices``, ``1 process``; ``3 个设备`` in Chinese."""
    if lang == "zh":
        return f"{n} {WORDS['zh'][word]}"
    return f"{n} {word}{'' if n == 1 else 's'}"


# The data's own English phrases that a Chinese section shows: the denominator of a
# target's name, the load and BLAS threads of a run, a missed target's decomposition.
_FLOOR_ZH = {"the NumPy floor": "NumPy 基准", "NumPy into a preallocated array": "NumPy 写入"}
_DETAIL_ZH = (
    (r"^decomposition: (floor|into) ", r"分解：\1 "),
    (r"(：|, )floor ", r"\1基准 "),
    (r"(^|：|, )into ", r"\1NumPy 写入 "),
    (r"(^|, )the bare (\S+) running the floor ", r"\1裸 \2 运行基准 "),
    (r"(^|, )its no-op alone ", r"\1仅其空操作 "),
    (r"(^|, )pattern ", r"\1模式 "),
    (r"(^|, )in place ", r"\1就地 "),
    (r" \(([\d,]+) page faults per call\)", r"（一次调用缺页 \1 次）"),
    (r", ", "，"),
)
_BLAS_ZH = (
    (
        r"^OpenBLAS on 1 thread \(its default here: (\d+)\)$",
        r"OpenBLAS 单线程（此处默认 \1 个线程）",
    ),
    (
        r"^no OpenBLAS found: BLAS threads left as they were$",
        "未找到 OpenBLAS：BLAS 线程数保持原样",
    ),
)


def floor_name(lang: str, name: str) -> str:
    """What a target's ratio is taken against: ``the NumPy floor`` (after ``÷`` in its name)."""
    return _FLOOR_ZH.get(name, name) if lang == "zh" else name


def detail(lang: str, text: str) -> str:
    """A missed target's decomposition (``decomposition: floor 0.0137 s, ...``)."""
    if lang == "zh":
        for pattern, repl in _DETAIL_ZH:
            text = re.sub(pattern, repl, text)
    return text


def blas(lang: str, text: str) -> str:
    """The BLAS threads a run recorded (``OpenBLAS on 1 thread (its default here: 2)``)."""
    if lang == "zh":
        for pattern, repl in _BLAS_ZH:
            text = re.sub(pattern, repl, text)
    return text


def load(lang: str, env: Any) -> str:
    """The 1-minute load average at the start and the end of a run."""
    if lang != "zh":
        return str(env.load)
    if env.load_start is None or env.load_end is None:
        return "不可用"
    return f"开始时 {env.load_start:.1f}，结束时 {env.load_end:.1f}（1 分钟平均负载）"


# The parts of the benchmarks' labels (``pure_callback, no rule, jitted``: a mechanism or a
# name, then what this form does) in Chinese; an API name or option (``pure_callback``,
# ``expand_dims``, ``sharding=device 0``, ``equinox 0.13.8``) stays as it is.
_LABEL_ZH = {
    "NumPy floor": "NumPy 基准",
    "default BLAS threads": "默认 BLAS 线程数",
    "preallocated output": "预分配输出",
    "native jax.numpy": "原生 jax.numpy",
    "native lax.scan": "原生 lax.scan",
    "native no-op": "原生空操作",
    "no report": "不报告",
    "no check": "不检查",
    "in place": "就地",
    "jitted": "jit 编译",
    "one call on the stacked data": "对堆叠的数据调用一次",
    "once on the stacked states": "对堆叠的状态调用一次",
    "no rule": "无求导规则",
    "minimal": "最小形式",
    "no-op": "空操作",
    "no-op on every step": "每一步一个空操作",
    "unordered": "无序",
    "ordered": "有序",
    "then np.asarray": "再调用 np.asarray",
    "np.asarray of each result": "对每个结果调用 np.asarray",
    "Python handler": "Python 处理函数",
    "the progress recipe": "进度配方",
    "the pure_callback tutorial's code": "pure_callback 教程的代码",
    "the External callbacks guide's code": "External callbacks 指南的代码",
}
# a part that is an API name, a call, an option or a package with its version: kept as it is
_KEPT = re.compile(r"^[A-Za-z_][\w.-]*(\(.*\)|=[\w ]+| \d[\w.]*)?$")


class LabelError(ValueError):
    """A benchmark label with a part that has no Chinese words."""


def label(lang: str, text: str) -> str:
    """A benchmark's label (``pure_callback, no rule, jitted``) in ``lang``: in Chinese each
    comma-separated part from ``_LABEL_ZH``, an API name or option kept; a part that is
    neither fails the build of the Chinese page."""
    if lang != "zh":
        return text
    out = []
    for part in text.split(", "):
        if part in _LABEL_ZH:
            out.append(_LABEL_ZH[part])
        elif _KEPT.match(part):
            out.append(part)
        else:
            raise LabelError(
                f"the benchmark label {text!r}: its part {part!r} has no Chinese words: add "
                "them to _LABEL_ZH in docs/hooks/jaxcb_site/perfwords.py"
            )
    return "，".join(out)
