"""The absolute sentences of the published prose that neither data nor a cited source
holds (:mod:`.prose`).

``REVIEWED``: ``(file, a substring of the sentence, why it needs neither)``, each read and
judged. ``PENDING``: ``(file, the sentence's start)`` of the sentences found when the check
came in (issue 49) and not reviewed yet: each is to be checked by a directive, cited,
rewritten or moved to ``REVIEWED`` with its reason. ``PENDING`` only shrinks: a new absolute
sentence goes nowhere near it (tests/docs/test_prose.py holds its length), and an entry that
matches no sentence any more fails the build, as in ``REVIEWED``.
"""

from __future__ import annotations

Q = "a question; the answer under it is checked by its expect-observation lines"
CODE = "describes the program shown with it (what the code does), not a behaviour of JAX"
ADVICE = "advice to the reader, not a statement of fact"
DEFINITION = "a definition or the project's design, not a behaviour of JAX"
GENERATED = "how this site is made: the build generates these from data (docs/hooks/jaxcb_site)"
OPAQUE = "a callback is opaque to tracing, which is why the mechanism exists (its definition)"

REVIEWED: tuple[tuple[str, str, str], ...] = (
    ("docs/edges.md", "how many times is it traced over three calls", Q),
    ("docs/edges.md", "how many times does the observer run?", Q),
    ("docs/index.md", "from its inputs only?", "a question of the chooser; not a claim"),
    ("docs/index.md", "Are you only *looking*", "a question of the chooser; not a claim"),
    (
        "docs/learn/00-why-leave-the-device.md",
        "Why can't you call",
        "the lesson's question; not a claim",
    ),
    ("docs/learn/00-why-leave-the-device.md", "You call it three times.", CODE),
    ("docs/learn/04-effects.md", "Python calls it three times", CODE),
    ("docs/learn/04-effects.md", "multiplied by w five times", CODE),
    ("docs/errors.md", "50 jitted calls of an observer", CODE),
    ("docs/roads.md", "The three calls above came from one thread.", CODE),
    ("docs/recipes.md", "Both, for 600 steps reported every 200", CODE),
    ("docs/learn/05-observing.md", "prints a line at every step", CODE),
    ("docs/learn/05-observing.md", "Make it print every second step only", "an exercise's task"),
    ("docs/learn/05-observing.md", "use it to look, never to compute", ADVICE),
    ("docs/gotchas.md", "**Instead**, export only the JAX part", ADVICE),
    ("docs/gotchas.md", "**Instead**, write only into the output buffers", ADVICE),
    ("docs/gotchas.md", "**Instead**, when the host must run at every step", ADVICE),
    ("packages/jaxcb-buffer/README.md", "copy its file, and only that file", ADVICE),
    ("docs/learn/02-vmap-method.md", "JAX cannot look inside your host function", OPAQUE),
    ("docs/learn/03-gradients.md", "JAX cannot look inside the host function", OPAQUE),
    ("docs/learn/glossary.md", "You never create one yourself.", DEFINITION),
    ("docs/mechanisms/native.md", "The baseline every callback is measured against", DEFINITION),
    (
        "packages/jaxcb-native/src/jaxcb_native/sin_scale.py",
        "the baseline every callback",
        DEFINITION,
    ),
    ("packages/jaxcb-core/README.md", "It never imports a mechanism package by name", DEFINITION),
    ("docs/check.md", "**never imports or runs** the code it checks", DEFINITION),
    (
        "packages/jaxcb-check/README.md",
        "never imports it, and needs only the standard library",
        DEFINITION,
    ),
    (
        "docs/learn/glossary.md",
        "On every page of this site the first use of a term links",
        GENERATED,
    ),
    ("docs/contributing/site.md", "so it cannot fall behind", GENERATED),
    ("docs/performance.md", "Every number, ratio, crossover size, verdict", GENERATED),
    ("docs/gotchas.md", "Under each script is what it printed on every JAX version", GENERATED),
    ("docs/claims.md", "The verdict lines are generated from that cell in every", GENERATED),
    (
        "docs/roads.md",
        "they cannot show a speed-up, which needs an accelerator",
        "the scripts run on the CPU (the site's behaviour session), so no speed-up can show",
    ),
)

PENDING: tuple[tuple[str, str], ...] = (
    ("docs/api/index.md", "Every mechanism package has the same function names with the"),
    ("docs/api/index.md", "[`jaxcb_legacy`](legacy.md): `host_callback` and `pure_callb"),
    ("docs/check.md", "A path that cannot be checked (missing, unreadable, a broken"),
    ("docs/check.md", "Every row is generated from `jaxcb_check.checker.RULES`, the"),
    ("docs/check.md", "A rule marked **heuristic** guesses at something the source "),
    ("docs/check.md", "What `jaxcb-check` cannot see: functions and `vmap`s in othe"),
    ("docs/check.md", "Its corpus, `tests/core/check_corpus/`, holds files written "),
    ("docs/claims.md", "The legacy rows (`host_callback/*`, `pure_callback/vectorize"),
    ("docs/claims.md", "One row per claim, one column per committed matrix file: the"),
    (
        "docs/computations/cubic_root.md",
        "Its derivative comes from the implicit function theorem, wri",
    ),
    (
        "docs/computations/progress.md",
        "A long `lax.scan` that reports to the host only every `every",
    ),
    (
        "docs/computations/progress.md",
        "Below: the same computation written with each mechanism, and",
    ),
    (
        "docs/computations/sin_scale.md",
        "Small, elementwise and differentiable, it is the reference s",
    ),
    (
        "docs/contributing/api/core.md",
        "search: boost: 0.3 # the harness's own API: for contributors",
    ),
    (
        "docs/contributing/performance-targets.md",
        "What the project aims for in the benchmarks ([the performanc",
    ),
    ("docs/contributing/performance-targets.md", "Every CPU side by side"),
    (
        "docs/contributing/performance-targets.md",
        "Each target measured in every committed CPU file, with its r",
    ),
    (
        "docs/contributing/performance-targets.md",
        "A target met on every processor is one a contributor can exp",
    ),
    ("docs/contributing/site.md", "Every table, code tab, verdict and plot on this site is gene"),
    ("docs/contributing/site.md", "Every directive"),
    ("docs/contributing/site.md", "A docstring, a package README, a code note (`annotations.py`"),
    ("docs/contributing/site.md", "Before any page is built (`on_files`) the engine checks that"),
    (
        "docs/contributing/test-timings.md",
        "`PYTEST_ADDOPTS` reaches pytest in every env: `PYTEST_ADDOPT",
    ),
    (
        "docs/contributing/test-timings.md",
        "Tried and not kept: running the packages' tests on JAX 0.12.",
    ),
    (
        "docs/contributing/test-timings.md",
        "That day the machine itself ran slower: in a quiet `tox -e b",
    ),
    (
        "docs/contributing/test-timings.md",
        "Both aims are met on the machine of 2026-12-05: a 2-core AMD",
    ),
    (
        "docs/contributing/test-timings.md",
        "`scripts/dev test`, new machine: tox, tox-uv and uv, Debian'",
    ),
    (
        "docs/contributing/test-timings.md",
        "Every one of them checks committed data or a package against",
    ),
    (
        "docs/contributing/test-timings.md",
        "Where the time goes on this machine, each part alone (wall /",
    ),
    (
        "docs/contributing/test-timings.md",
        "Getting under 12 minutes here would take about a quarter les",
    ),
    (
        "docs/contributing/test-timings.md",
        "The matrix pool starts a cell the committed file records as ",
    ),
    (
        "docs/contributing/test-timings.md",
        "Most of the time goes to checking the published data on thre",
    ),
    (
        "docs/contributing/test-timings.md",
        "JAX 0.10.2 writes no program with a host callback to the cac",
    ),
    (
        "docs/contributing/test-timings.md",
        "Two compiler settings were measured on the 0.12.0.1 matrix a",
    ),
    ("docs/distributed.md", "`jaxcb matrix --processes 2` starts the processes on this ma"),
    ("docs/distributed.md", "Each process runs the same cells in the same order (an SPMD "),
    ("docs/distributed.md", "A mesh spans every device of every process."),
    ("docs/distributed.md", "**jit, input split over processes**: a global array split al"),
    ("docs/distributed.md", "**… out_shardings=P()**: the same, asking for the result on "),
    ("docs/distributed.md", "**shard_map over every device**: one batch element per devic"),
    ("docs/distributed.md", "A result is read on every process the way a user reads it: `"),
    ("docs/distributed.md", "Each cell: ✅ right on every process, ⚠️ ran but some process"),
    ("docs/distributed.md", "An effect, `log_steps`: every step of a scan owes one record"),
    ("docs/distributed.md", "Every row and column, aggregated over the computations:"),
    ("docs/distributed.md", "A bar fed from the process-local part of a training loop (th"),
    ("docs/distributed.md", "The same host function (add one) on a float32 array of `n` e"),
    ("docs/distributed.md", "**Under `jax.jit`** the callback is given the logical array "),
    ("docs/distributed.md", "**Under `shard_map`** every device calls the host with its o"),
    ("docs/distributed.md", "To measure a real cluster it would need: the coordinator's a"),
    ("docs/distributed.md", "A cell that a process does not finish within the timeout, or"),
    ("docs/distributed.md", "`tox -e multiprocess` checks this with a test-only row that "),
    ("docs/edges.md", "Each section below is a script you can copy and run as it is"),
    (
        "docs/edges.zh.md",
        "下面每一节都是一个你可以复制下来原样运行的脚本（只用 JAX、NumPy 和标准库），它尝试其中一种情况，后面是一张表格",
    ),
    ("docs/edges.zh.md", "多次调用，只编译一次 { #compile-once }"),
    (
        "docs/edges.zh.md",
        "一个调用主机的、经过 `jit` 的函数：在三次调用中，它被追踪了多少次，主机又运行了多少次？",
    ),
    ("docs/edges.zh.md", "每个元素都运行同样的三步；观察回调运行了多少次？"),
    ("docs/edges.zh.md", "主机把 7 写入输出；这个函数被调用两次，一次使用它的结果，一次不使用。"),
    (
        "docs/edges.zh.md",
        "同一个会失败的函数被调用两次，第二次使用的是它在第一次调用时编译好的程序。",
    ),
    ("docs/errors.md", "The details of every case:"),
    (
        "docs/errors.zh.md",
        "每个单元格是调用方捕获到的异常；其下方是保留下来的东西：原来的类型（在 `__cause__`/`__context__",
    ),
    (
        "docs/errors.zh.md",
        "下面有两种办法，每种都是一个你可以运行的脚本，附有它在每个 JAX 版本上打印的内容；然后是一个库的做法，与 `chec",
    ),
    (
        "docs/errors.zh.md",
        "同一个检查（输入为负数），分别用 `error_if` 和 `checkify.check`（经由 `checkify.",
    ),
    ("docs/errors.zh.md", "**`block_until_ready()` 与 `jax.effects_barrier()` 对比**：对一个观察"),
    ("docs/gotchas.md", "Each gotcha is two complete scripts you can copy and run as "),
    ("docs/gotchas.md", "XLA may move a loop-invariant computation out of the loop; t"),
    ("docs/gotchas.md", "The matrix's *loops under grad* columns measure the same for"),
    ("docs/gotchas.md", "**Instead**, observe outside the checkpointed function: only"),
    ("docs/gotchas.md", "Every mechanism and context: [when the host raises](errors.m"),
    ("docs/gotchas.md", "Python formats an f-string when the function is traced, befo"),
    ("docs/gotchas.md", "**Instead**, give `jax.debug.print` a format string and the "),
    ("docs/gotchas.md", "The input says it is read-only, but `np.asarray` of it is a "),
    (
        "docs/gotchas.zh.md",
        "每个陷阱都是两个完整的脚本，你可以复制下来原样运行（只用 JAX、NumPy 和标准库）：先是陷阱，然后是修正。",
    ),
    (
        "docs/gotchas.zh.md",
        "每个脚本下方是它在本站涵盖的每个 JAX 版本上打印的内容，它打印的每一行占表格的一行；表格里没有任何内容是手工输入的。",
    ),
    (
        "docs/gotchas.zh.md",
        "XLA 可能把循环中不变的计算移到循环外面；对纯回调来说这是允许的，所以主机只运行一次，而不是每一步都运行。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：当主机必须在每一步都运行时，使用 `io_callback`：副作用不会被移到循环外面。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：不要在被求导的循环内部调用主机：把每一步的值作为辅助输出（`has_aux=True`）返回，在这一",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在被 checkpoint 的函数外面观察：只有它里面的东西才会再运行一次。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在 `cond` 之后只调用一次回调，并把条件传给它，这样主机就知道每个成员走的是哪个分支。",
    ),
    (
        "docs/gotchas.zh.md",
        "在 `shard_map` 之外，回调不会被拆分：JAX 把各个分片汇集起来，主机只运行一次，处理的是整个数组。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在 `jax.shard_map` 里调用它：主机对每个设备运行一次，处理的是该设备上的那一块。",
    ),
    (
        "docs/gotchas.zh.md",
        "Python 在函数被追踪时、还没有具体值的时候就格式化了 f-string：每次调用打印的都是追踪器。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：给 `jax.debug.print` 传一个格式字符串和值；它会在每次调用时在主机上把值填进去。",
    ),
    (
        "docs/gotchas.zh.md",
        "为另一个进程或另一台机器保存编译好的函数：JAX 能序列化编译后的代码，但不能序列化 Python 函数。",
    ),
    ("docs/gotchas.zh.md", "**应该这样写**：只导出 JAX 的部分，在它的外面调用主机函数。"),
    (
        "docs/gotchas.zh.md",
        '**应该这样写**：传入 `vmap_method`：`"sequential"` 对批中的每个成员调用一次主机，`"e',
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：当主机调用的次数很重要时，使用 `io_callback`：每次调用都是一个副作用，每一次都会运行。",
    ),
    (
        "docs/gotchas.zh.md",
        "`vmap` 不会对主机调用做批处理：主机对批中的每个成员运行一次，每次处理一行。",
    ),
    (
        "docs/gotchas.zh.md",
        "输入声称自己是只读的，但对它调用 `np.asarray` 得到的是一个可写的视图，往那里写入会改变调用方的数组。",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：只写入输出缓冲区；需要临时工作空间时，复制一份输入（`np.asarray(x).copy()`）。",
    ),
    ("docs/index.md", "This site shows the same [computations](computations/index.m"),
    ("docs/index.md", "Part of a program can run on the host's processor with `comp"),
    ("docs/index.md", "Every variant × transform, aggregated the same way: first ov"),
    (
        "docs/index.zh.md",
        "从[学习路径](learn/index.md)开始：一组短课，从第一个 `jax.pure_callback` 一直讲到",
    ),
    (
        "docs/index.zh.md",
        "本站用每一种能表达这些[计算](computations/index.md)的机制把它们各写一遍，并给出一张[对照表](",
    ),
    ("docs/index.zh.md", "**2. 主机是否只根据它的输入，计算出一个你要用到的*值*？"),
    ("docs/index.zh.md", "**4. 你只是在*看*吗（打印、进度、调试）？"),
    (
        "docs/index.zh.md",
        "**可以直接运行的答案**，每个都是完整的程序，附有它打印的内容：[经过 `jit` 的循环里的进度报告](recipe",
    ),
    ("docs/index.zh.md", "[性能页面](performance.md)测量了每种做法每次调用和每个元素的开销。"),
    (
        "docs/index.zh.md",
        "这张表由最新提交的对照表生成：每种机制一列（取它的第一个变体）；每个单元格里，一行对应纯计算，一行对应副作用和非纯输入，",
    ),
    (
        "docs/index.zh.md",
        "程序的一部分可以用 `compute_on` 在主机的处理器上运行（它的实测结果与各种回调并列，见[它自己的页面](me",
    ),
    (
        "docs/index.zh.md",
        "每个变体 × 变换，都按同样的方式汇总：先对纯计算汇总，再对副作用和非纯输入汇总（在后者中没有可展示内容的变体不列出）。",
    ),
    (
        "docs/index.zh.md",
        "把鼠标悬停在单元格上或点按它，可以看到每个计算各自的结论；[完整的对照表](matrix.md)为每个计算各设一个单元格",
    ),
    ("docs/learn/00-why-leave-the-device.md", "JAX records every JAX operation done to it."),
    (
        "docs/learn/00-why-leave-the-device.md",
        "[The mechanisms side by side](../matrix.md): every way compi",
    ),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "为什么不能在 `jax.jit` 里随便调用任何一个 Python 函数？",
    ),
    ("docs/learn/00-why-leave-the-device.zh.md", "JAX 会记录下对它做的每一个 JAX 运算。"),
    ("docs/learn/00-why-leave-the-device.zh.md", "你调用它三次。"),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "它不需要数值：遇到追踪器时，它只是把这个运算记录下来。",
    ),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "[对照表](../matrix.md)：把编译后的 JAX 代码通往主机的每一种途径放在一起比较。",
    ),
    (
        "docs/learn/02-vmap-method.md",
        "`run` batches it over the 4 rows of `xs` under `jit`, with t",
    ),
    ("docs/learn/02-vmap-method.md", "`broadcast_all`: one call, every argument full size"),
    (
        "docs/learn/02-vmap-method.md",
        "[`vmap_method` on the `pure_callback` page](../mechanisms/pu",
    ),
    (
        "docs/learn/02-vmap-method.zh.md",
        "`run` 在 `jit` 下对 `xs` 的 4 行做批处理，每一行都用同一个 `w`（`in_axes=(0, No",
    ),
    ("docs/learn/02-vmap-method.zh.md", "`broadcast_all`：调用一次，每个参数都是完整大小"),
    ("docs/learn/02-vmap-method.zh.md", "让 `jax.vmap(erfcx)` 能够运行，并且整批只调用一次主机。"),
    (
        "docs/learn/02-vmap-method.zh.md",
        "[`pure_callback` 页面上的 `vmap_method`](../mechanisms/pure_call",
    ),
    ("docs/learn/03-gradients.md", "The price: a `custom_vjp` function only runs backwards."),
    ("docs/learn/03-gradients.md", "Every call is a trip to the host, and the compiler keeps eac"),
    ("docs/learn/03-gradients.zh.md", "代价是：`custom_vjp` 函数只能做反向求导。"),
    ("docs/learn/03-gradients.zh.md", "陷阱：规则里两次调用回调"),
    (
        "docs/learn/03-gradients.zh.md",
        "如果照着公式直接写，规则在每个出现 s 的地方都会调用一次回调。",
    ),
    ("docs/learn/03-gradients.zh.md", "每次调用都要往返主机一趟，而且编译器会把每一次都保留下来。"),
    ("docs/learn/03-gradients.zh.md", "应该怎么做：只调用一次，重复使用结果"),
    ("docs/learn/03-gradients.zh.md", "只调用一次回调，把结果存进一个变量，再用这个变量构造导数。"),
    ("docs/learn/04-effects.md", "The program counts the host calls right after the line retur"),
    ("docs/learn/04-effects.md", "Log the step number and the loss of every training step from"),
    ("docs/learn/04-effects.md", "[`io_callback`](../mechanisms/io_callback.md): its contract,"),
    ("docs/learn/04-effects.md", "[The matrix](../matrix.md): its *loops under grad* columns m"),
    (
        "docs/learn/04-effects.zh.md",
        " `pure_callback` 向 JAX 保证它没有副作用，所以一次结果没有被任何地方使用的调用就是死代码，死代码消",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "`ordered=True` 让每次调用都成为一个有序副作用：JAX 必须按程序顺序执行这样的调用。",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "这里，一个经过 `jit` 的函数里有三次调用，而 Python 调用这个函数三次。",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "在编译后的代码里做循环的模型，常常用 `lax.scan` 来实现，而循环体显然就是记录每一步的地方。",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "这里，状态 x 被 w 乘了五次，每一步都用一个有序的 `io_callback` 记录 x。",
    ),
    ("docs/learn/04-effects.zh.md", "能不能让回调直接接收 x 本身，也就是放在求导路径上？"),
    (
        "docs/learn/04-effects.zh.md",
        "让循环返回每一步的值，把它们作为辅助结果（`has_aux=True`）从损失函数里传出来，再用一个放在 `value_",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "在 `train` 内部记录每一个训练步的步数和损失，让主机看到 6 步中的全部 6 步。",
    ),
    (
        "docs/learn/04-effects.zh.md",
        "[`io_callback`](../mechanisms/io_callback.md)：它的约定，在每个 JAX 版",
    ),
    ("docs/learn/05-observing.md", "Under `vmap` the condition is a batch of values, one per ele"),
    ("docs/learn/05-observing.md", "The compiled loop of `lax.scan` runs its body at every step,"),
    ("docs/learn/05-observing.md", "The condition here is one value per step, not a batch, so on"),
    ("docs/learn/05-observing.md", "[The matrix](../matrix.md): every callback under every trans"),
    ("docs/learn/05-observing.zh.md", " JAX 会在主机上用每次调用的实际值填入占位符。"),
    ("docs/learn/05-observing.zh.md", " 它没有返回结果：用它来查看，绝不要用它来计算。"),
    (
        "docs/learn/05-observing.zh.md",
        " 在 `vmap` 下，条件变成了一批值，每个元素一个，所以没法只选一个分支：JAX 会对每个元素都运行两个分支，再为每",
    ),
    (
        "docs/learn/05-observing.zh.md",
        "`lax.scan` 编译出的循环在每一步都会运行循环体，其中的回调也不例外。",
    ),
    (
        "docs/learn/05-observing.zh.md",
        " 使用 `partitioned=True`（按分片调用）时，每个分片各自调用主机，传入的是它自己的那一块。",
    ),
    ("docs/learn/05-observing.zh.md", "这个梯度下降循环每一步都打印一行。"),
    (
        "docs/learn/05-observing.zh.md",
        " 这里的条件每步只有一个值，不是一批值，所以只有被选中的分支会运行。",
    ),
    ("docs/learn/06-hot-path.md", "Write into `out`, never into an input"),
    ("docs/learn/06-hot-path.md", "[Performance](../performance.md): every mechanism's fixed co"),
    (
        "docs/learn/06-hot-path.zh.md",
        " 然后它计时运行五次，取最快的一次；每次都先用 `block_until_ready()` 等结果算完，再停表。",
    ),
    (
        "docs/learn/06-hot-path.zh.md",
        " `show` 在四种大小下（从 1 个元素到 10^6 个元素）打印每次调用的时间和每个元素的时间。",
    ),
    ("docs/learn/06-hot-path.zh.md", "只写 `out`，绝不写输入"),
    (
        "docs/learn/06-hot-path.zh.md",
        "[性能](../performance.md)：每种机制的固定开销和每个元素的开销，并排比较。",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "A handler that cannot do its job returns an `ffi::Error` wit",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "The counter `calls` and the plain C function `SinScaleCalls`",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "`CMakeLists.txt` asks Python where the headers are (`jax.ffi",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "From an empty folder holding only `sin_scale.cc` and `CMakeL",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "Write a second handler, `SinScaleF64`, in a new file `sin_sc",
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "[Performance](../performance.md): the FFI next to every othe",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "处理函数如果无法完成任务，就返回一个带消息的 `ffi::Error`；否则返回 `Success()`。",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "计数器 `calls` 和普通 C 函数 `SinScaleCalls` 只是为了让本课能数出 XLA 运行了处理函数多",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "`CMakeLists.txt` 向 Python 询问头文件在哪里（`jax.ffi.include_dir()`），",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        " 在一个只放了 `sin_scale.cc` 和 `CMakeLists.txt` 的空文件夹里运行：",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "计时方法和[第 6 课](06-hot-path.md)一样：先调用一次，用于编译和预热；然后运行五次，取最快的一次；每",
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        " 在 `sin_scale.cc` 旁边新建一个文件 `sin_scale_f64.cc`，在里面写第二个处理函数 `S",
    ),
    (
        "docs/learn/08-devices-processes.md",
        "It gets its process id and a port on the command line, joins",
    ),
    (
        "docs/learn/08-devices-processes.md",
        "The next step writes that program to a temporary folder, ask",
    ),
    (
        "docs/learn/08-devices-processes.md",
        "[Callbacks across shards and processes](../distributed.md): ",
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 然后用 `NamedSharding` 这种分片方式（建立在只有一个轴的 `Mesh` 上），把一个含八个值的数组切成",
    ),
    ("docs/learn/08-devices-processes.zh.md", "shard_map：每个分片调用一次"),
    (
        "docs/learn/08-devices-processes.zh.md",
        "`jax.shard_map` 在每个设备上各运行一次你的函数，处理的是该设备上的那一块数据。",
    ),
    ("docs/learn/08-devices-processes.zh.md", " 函数里的回调也是每个分片运行一次。"),
    ("docs/learn/08-devices-processes.zh.md", " 下面是每个进程运行的程序。"),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 它从命令行拿到自己的进程编号和一个端口，通过位于 `127.0.0.1`（只在本机）的协调器加入作业。",
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 每个进程只有一个 CPU 设备，所以网格（mesh）跨越两个进程中的两个设备。",
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        "下一步把这个程序写到一个临时文件夹里，向操作系统要一个空闲端口，用 `subprocess.Popen` 启动两个进程，",
    ),
    ("docs/learn/08-devices-processes.zh.md", "陷阱：“只打印了一次，所以只运行了一次”"),
    (
        "docs/learn/08-devices-processes.zh.md",
        "回到本进程和四个设备的网格：在编译后的代码内部，把 `x` 的每个分片写到临时文件夹里各自的文件中，文件以分片的索引命名",
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        "写文件是一种副作用，所以要用 `io_callback`（第 4 课），并把它放在 `shard_map` 里，让每个分",
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        ' `jax.lax.axis_index("i")` 给出每个分片在网格轴上的索引。',
    ),
    ("docs/learn/glossary.md", "`jax.effects_barrier()`: wait until every callback already s"),
    ("docs/learn/glossary.zh.md", "课程里用到的词，每个都只在这里定义一次。"),
    ("docs/learn/glossary.zh.md", "在本站的每一页上，一个术语第一次出现时都会链接到这里。"),
    ("docs/learn/glossary.zh.md", "把在循环各次迭代之间不变的计算移到循环外面，让它只运行一次。"),
    (
        "docs/learn/glossary.zh.md",
        "一个不含数据的值，JAX 在编译后的程序里把它从一个[有序副作用](#ordered-effect)传给下一个，让每个副",
    ),
    ("docs/learn/glossary.zh.md", " 你永远不需要自己创建它。"),
    (
        "docs/learn/glossary.zh.md",
        "多个进程（在一台或多台机器上）可以通过 `jax.distributed.initialize` 加入同一个 JAX 作",
    ),
    (
        "docs/learn/glossary.zh.md",
        "把一个参数的内存交给编译好的程序：`jax.jit(f, donate_argnums=0)` 让 XLA 用第一个参数",
    ),
    ("docs/learn/glossary.zh.md", "[性能页](../performance.md)统计每次调用的次数。"),
    ("docs/learn/index.md", "Every lesson is one script that imports only JAX, NumPy and "),
    ("docs/learn/index.md", "**Read it here.** Every program on these pages is included f"),
    ("docs/learn/index.md", "After the path: [which callback do I need?](../index.md) to "),
    (
        "docs/learn/index.zh.md",
        "每节课都是一个脚本，只导入 JAX、NumPy 和 SciPy；在没有 GPU 的机器上，它在 CPU 上运行：",
    ),
    (
        "docs/learn/index.zh.md",
        "** 这些页面上的每个程序都取自该课的脚本，程序下方的每段输出都是这个脚本实际打印的结果，在输出上方标出的每个 JAX ",
    ),
    (
        "docs/learn/index.zh.md",
        "](../index.md)为你自己的程序选一种回调；读一读[常见陷阱](../gotchas.md)；再看[对照表](",
    ),
    ("docs/matrix.md", "Every mechanism variant × computation × transform, **run** o"),
    ("docs/matrix.md", "✅ the transformed function ran and matched the NumPy/SciPy r"),
    ("docs/matrix.md", "↗ measured in another row: this row is measured under some c"),
    (
        "docs/matrix.zh.md",
        "每个机制变体 × 计算 × 变换，都由 `tests/matrix/` 中的共享测试，在切换器中选定的 JAX 版本上*",
    ),
    (
        "docs/matrix.zh.md",
        "✅ 变换后的函数运行了，结果与 NumPy/SciPy 的参考值一致；对于副作用（一行日志、一次进度报告、一次从主机生成",
    ),
    (
        "docs/matrix.zh.md",
        "↗ 在另一行中测量：这一行只在某些列下测量，同一机制的另一行在这个变换下测量了这个计算（详细信息里指出了是哪一行）。",
    ),
    (
        "docs/matrix.zh.md",
        "切换器选择一个已提交的数据文件（每个文件在被选中时才加载）；筛选器缩小显示的行：一个机制系列，或其中的一个变体，以及一个",
    ),
    (
        "docs/matrix.zh.md",
        "`docs/data/matrix/` 下的每个文件都是 `jaxcb matrix --write` 的一次运行结果。",
    ),
    (
        "docs/mechanisms/buffer_callback.md",
        "**No derivative rule**, like every callback: the patterns ca",
    ),
    (
        "docs/mechanisms/colocated_python.md",
        "The [other roads](../roads.md#colocated-python) page shows t",
    ),
    (
        "docs/mechanisms/colocated_python.md",
        "**A loop in Python.** `log_steps` cannot log from inside a c",
    ),
    (
        "docs/mechanisms/compute_on.md",
        "The [other roads](../roads.md#compute-on) page shows the API",
    ),
    ("docs/mechanisms/debug.md", "Progress bars and logs inside loops ([`progress`](../computa"),
    ("docs/mechanisms/ffi.md", "**Typed by the handler.** Each handler dispatches on the ele"),
    ("docs/mechanisms/ffi.md", "When the host computation is **hot** (called in a loop, or p"),
    ("docs/mechanisms/ffi.md", "An effect can take this road too: the [logger](#logger) belo"),
    ("docs/mechanisms/index.md", "Their documentation promises different things (pure or not, "),
    (
        "docs/mechanisms/io_callback.md",
        "An effect that must happen once per call, outside a differen",
    ),
    (
        "docs/mechanisms/io_callback.md",
        "For pure computations it works too (every computation has an",
    ),
    (
        "docs/mechanisms/io_callback.md",
        "An effect inside a `lax.scan`: every step reaches the host o",
    ),
    ("docs/mechanisms/native.md", "**Pure and traced.** The function runs once per input shape "),
    ("docs/mechanisms/native.md", "**Not for effects.** Compiled code cannot log, write a file "),
    ("docs/mechanisms/native.md", "The same `sin_scale` as the other pages, in `jax.numpy`: eve"),
    (
        "docs/mechanisms/pure_callback.md",
        "A pure numerical function JAX lacks: a SciPy special functio",
    ),
    ("docs/mechanisms/pure_callback.md", "every argument tiled to the full batch"),
    ("docs/mechanisms/pure_callback.md", "the host code needs equal shapes (it cannot broadcast)"),
    ("docs/mechanisms/pure_callback.md", "the host code only takes one problem at a time"),
    ("docs/mechanisms/pure_callback.md", "never under `vmap`: it raises"),
    ("docs/mechanisms/pyffi.md", "The bridge makes the input views read-only, so a write to on"),
    ("docs/mechanisms/pyffi.md", "A buffer of a type NumPy cannot view (bfloat16) is refused t"),
    ("docs/mechanisms/pyffi.md", "**Batching** is the `vmap_method` you give (`expand_dims` in"),
    ("docs/mechanisms/pyffi.md", "The bridge, cut down to float32 buffers, and one handler; `j"),
    ("docs/performance.md", "This page measures that round trip for every mechanism in th"),
    ("docs/performance.md", "The `buffer_callback` `sum_mean` pattern sums once and divid"),
    ("docs/performance.md", "A **no rule** column is the bare call of a mechanism with th"),
    ("docs/performance.md", "The **jitted native no-op** is `jax.jit` of a function that "),
    ("docs/performance.md", "A run above the quiet threshold is marked here and in every "),
    ("docs/performance.md", "Every computation, every mechanism"),
    ("docs/performance.md", "Rows are computation × number of elements per argument (`exp"),
    ("docs/performance.md", "`jax.vmap` over batches of the catalog's inputs with every v"),
    ("docs/performance.md", "**Per step**: the `log_steps` patterns send every state to t"),
    ("docs/performance.md", "**Throttled**: the `progress` patterns report from one branc"),
    ("docs/performance.md", "Every variant called without `jax.jit`, on NumPy arguments, "),
    ("docs/performance.md", "An eager call that compiled again every time would show here"),
    ("docs/performance.md", "The two source texts this project checks ([the claims page]("),
    ("docs/performance.md", "**pytest-benchmark**, in `tests/bench/`, off in the default "),
    ("docs/performance.md", "The session first waits, for a bounded time, for the machine"),
    ("docs/performance.md", "Every case runs under `jax.jit` on arguments already on the "),
    ("docs/performance.md", "The first call compiles and is not timed, so **compile time "),
    ("docs/performance.md", "Fast calls are repeated within a round; every case gets the "),
    ("docs/performance.md", "The tables show the **median**, the tooltips the **interquar"),
    ("docs/performance.md", "**Host calls** are counted on one untimed call after compili"),
    ("docs/performance.md", "**Page faults.** The untimed call that counts host calls als"),
    ("docs/performance.md", "**One file per processor and vector width.** Processors sold"),
    ("docs/performance.md", "A run that does not cover the whole suite (`-k`, a failure) "),
    ("docs/recipes.md", "Each runs as it is with JAX, NumPy and the standard library,"),
    ("docs/recipes.md", "It calls your Python `report` function every `every` steps a"),
    ("docs/recipes.md", "The step index must not depend on batched data: a batched pr"),
    ("docs/recipes.md", "Each step's loss, gradient norm and other metrics leave the "),
    ("docs/recipes.md", "For output per shard, an `io_callback` inside `jax.shard_map"),
    ("docs/recipes.md", "**A SciPy function with gradients**: `jax.pure_callback` wit"),
    ("docs/recipes.md", "**Writing a value to the host at every step**: [gotchas 1–4]"),
    (
        "docs/recipes.zh.md",
        "针对反复遇到的任务的程序，每个都是完整的：复制它，运行它，留下你需要的那个函数。",
    ),
    (
        "docs/recipes.zh.md",
        "每个程序只用 JAX、NumPy 和标准库，原样就能运行；程序下方是它在本站涵盖的每个 JAX 版本上打印的内容（CPU",
    ),
    (
        "docs/recipes.zh.md",
        "在 `jax.vmap` 下，批中的每个成员各自报告，靠一个和数据一起被映射的成员编号来区分彼此。",
    ),
    (
        "docs/recipes.zh.md",
        "步的下标不能依赖于批处理的数据：批处理后的条件会把 `lax.cond` 变成一次 select，两个分支会对每个成员都",
    ),
    ("docs/recipes.zh.md", "[jax-tqdm](https://github.com/jeremiecoullon/jax-tqdm) 从同一个位"),
    (
        "docs/recipes.zh.md",
        "每一步的损失、梯度范数和其他指标都作为普通输出离开程序（即 `jax.value_and_grad` 的 `has_au",
    ),
    (
        "docs/recipes.zh.md",
        "在有多个进程的作业中，一行由 `jax.process_index() == 0` 把关的日志在整个作业中只出现一次。",
    ),
    (
        "docs/recipes.zh.md",
        "要按分片输出，就在 `jax.shard_map` 里放一个 `io_callback`，并把分片的下标（`lax.ax",
    ),
    (
        "docs/recipes.zh.md",
        "这个脚本在 127.0.0.1 上启动它自己的两个进程，二者通过 `jax.distributed.initialize",
    ),
    (
        "docs/recipes.zh.md",
        "**带梯度的 SciPy 函数**：`jax.pure_callback` 加上一条 `jax.custom_jvp` ",
    ),
    (
        "docs/recipes.zh.md",
        "**每一步都把一个值写到主机上**：[陷阱 1–4](gotchas.md#dce)，每个都附有正确做法的程序。",
    ),
    ("docs/roads.md", "Sometimes you need less than that, or something else: only p"),
    ("docs/roads.md", "The first four sections show complete scripts, each followed"),
    ("docs/roads.md", "The same marks on the site's five computations, measured und"),
    ("docs/roads.md", "The releases before it took only the compute type and were u"),
    ("docs/roads.md", "Call it on every result you will read, do other host work, t"),
    ("docs/roads.md", "What a raising host function does instead, in six places and"),
    (
        "docs/roads.zh.md",
        "有时你需要的比这少，或者需要的是别的东西：只把一部分算术放到主机的处理器上，只是提前把结果复制到主机内存，或者在设备旁边",
    ),
    (
        "docs/roads.zh.md",
        "对每一种需要，JAX 都有一个办法；它们都不会在编译后的程序里运行 Python（第四节的那个标志除外，见那里）。",
    ),
    (
        "docs/roads.zh.md",
        "前四节展示完整的脚本，每个脚本后面是它在本站涵盖的每个 JAX 版本上打印的内容（CPU，单个进程；本站的测试会重新运行",
    ),
    (
        "docs/roads.zh.md",
        "它们展示 JAX 接受什么，以及 `jit`、`grad`、`vmap` 和 `lax.scan` 怎样处理它；它们无法",
    ),
    (
        "docs/roads.zh.md",
        '`compute_on(compute_type="device_host", ...)` 把一个函数的运算标记为在主机',
    ),
    (
        "docs/roads.zh.md",
        "同样的标记用在本站的五个计算上，在每个变换下与各种回调并列实测，见 [compute_on 的页面](mechanism",
    ),
    (
        "docs/roads.zh.md",
        "在当前的形式中，`compute_on` 包装一个函数，并且需要 `out_memory_spaces=`，即每个结果应",
    ),
    ("docs/roads.zh.md", "在此之前的版本只接受计算类型，并作为上下文管理器包在这些运算外面使用。"),
    (
        "docs/roads.zh.md",
        "对你要读取的每个结果调用它，去做主机上的其他工作，然后再读取它们（`np.asarray(x)`）；脚本显示了这个调用返",
    ),
    ("docs/roads.zh.md", "上面的三次调用来自同一个线程。"),
    (
        "docs/roads.zh.md",
        '如果从两个线程同时调用，每次调用在向文件写入 "start" 和 "end" 之间休眠 0.3 秒：',
    ),
    ("docs/run.md", "Callbacks always run on the host CPU: JAX copies arguments f"),
    ("docs/run.md", "Every computation page has, under each mechanism's tab, a co"),
    ("docs/run.md", "The scripts are the files under `docs/examples/<package>/`; "),
    ("docs/run.md", "The others need only JAX."),
    ("docs/run.md", "The record holds the hash of each file it ran: the site buil"),
    ("docs/run.md", "An example runs where its package's registry says the mechan"),
    ("docs/run.md", "So the examples are plain scripts, the test is about 200 lin"),
    ("docs/run.md", "The learning path's lessons are scripts too: `docs/learn/les"),
    ("docs/run.md", 'Each code cell carries one tag (`# %% tags=["trap"]`); a les'),
    ("docs/run.md", "Each lesson runs in a fresh process with one CPU device, in "),
    ("docs/run.md", "The glossary (`docs/learn/glossary.md` and `glossary.zh.md`,"),
    (
        "packages/jaxcb-buffer/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "It wraps its input buffers in read-only NumPy views (no copy",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` in a seco",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "Every call passes `has_side_effect=False`: JAX treats it as ",
    ),
    ("packages/jaxcb-buffer/README.md", "Hence the read-only views."),
    (
        "packages/jaxcb-buffer/README.md",
        "The patterns use `np.asarray`, which a `Buffer` supports on ",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "Arguments and edge cases, the same in every jaxcb package (`",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "`log_steps`, `progress` and `host_draw` are listed unsupport",
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "The package still imports (`jaxcb_buffer.HAS_BUFFER_CALLBACK",
    ),
    ("packages/jaxcb-check/README.md", "A file that cannot be checked never passes silently."),
    (
        "packages/jaxcb-colocated/README.md",
        "Every function first checks its arguments as `jaxcb_native` ",
    ),
    (
        "packages/jaxcb-colocated/README.md",
        "Under `jax.jit`, `jax.grad`, `jax.vmap` and every transform ",
    ),
    (
        "packages/jaxcb-colocated/README.md",
        "To use a pattern, copy its module, `src/jaxcb_colocated/comp",
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "Another road of [jaxcb](../../README.md): every pure computa",
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "To use a pattern, copy `src/jaxcb_compute_on/computations.py",
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "Every function first checks its arguments as `jaxcb_native` ",
    ),
    (
        "packages/jaxcb-core/README.md",
        "typed records, load and validate for every file under `docs/",
    ),
    (
        "packages/jaxcb-core/README.md",
        "`jaxcb check`: the migration checker for users' code (standa",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "So the observers here compute the native `jax.numpy` / `jax.",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "`src/jaxcb_debug/log_steps.py`, and nothing else: the module",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "every step of a `lax.scan` reaches `log(k, x_k)` / prints `s",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "only every `every` steps: the callback sits in a `lax.cond` ",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "`host_draw` has no debug version: a debug callback cannot re",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "The five observers are one module, `observers.py`: each comp",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "Under `jax.checkpoint` the forward pass runs again in the ba",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "Arguments are validated as in every jaxcb package (`tests/pa",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "To reuse one, copy these three files into one folder: `src/j",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "That puts `lib<name>.so` beside `<name>.py`, and `import <na",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`custom_vjp`, backward in C++: `L(aᵀ, g)` = upper-right bloc",
    ),
    ("packages/jaxcb-ffi/README.md", "Every handler dispatches on the dtype: float32 and float64."),
    (
        "packages/jaxcb-ffi/README.md",
        "The Python wrappers convert float16 and bfloat16 (and other ",
    ),
    ("packages/jaxcb-ffi/README.md", "The process goes on: a handler error is never a crash."),
    (
        "packages/jaxcb-ffi/README.md",
        "A non-finite input is not an error: a matrix with a NaN or i",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "**Why `broadcast_all`.** It hands every operand to the handl",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`expand_dims` would need stride logic in every handler; with",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`sin_scale.cc`, `sum_mean.cc` and `expm.cc` mark their loops",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`tests/packages/test_ffi.py` also builds the three files as ",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Where XLA gives no pool, the handler's thread does every chu",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The headers come from jaxlib (`jaxlib/include/xla/ffi/api`, ",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "XLA refuses a handler built against newer headers than its o",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Each module's loader therefore compares the jaxlib its libra",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "With a jaxlib before 0.5.0 (no `jax.ffi`) CMake builds nothi",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The libraries go into each environment's `site-packages/jaxc",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The CMake build lives in `build/<python cache tag>/` (ignore",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`host_draw` and `progress` read host state or report to a Py",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`jax.export` refuses these custom calls (no compatibility gu",
    ),
    ("packages/jaxcb-io/README.md", "Every computation of the jaxcb catalog through [`jax.experim"),
    ("packages/jaxcb-io/README.md", "`src/jaxcb_io/log_steps.py`, and nothing else: the module ho"),
    ("packages/jaxcb-io/README.md", "every step of a `lax.scan` reaches the host `log(k, x_k)`, o"),
    ("packages/jaxcb-io/README.md", "the host is reached only every `every` steps: the callback s"),
    ("packages/jaxcb-io/README.md", "`vmap` of an unordered call is a loop (one host call per bat"),
    ("packages/jaxcb-io/README.md", "ordered `log_steps` over 10⁴ steps (eagerly, under `jit`, in"),
    ("packages/jaxcb-io/README.md", "Arguments and edge cases, the same in every jaxcb package (`"),
    ("packages/jaxcb-io/README.md", "To differentiate, use `jaxcb-pure` (pure computations) or `j"),
    ("packages/jaxcb-io/README.md", "Each module's docstring states its contract; the site's supp"),
    (
        "packages/jaxcb-native/README.md",
        "The baseline of [jaxcb](../../README.md): every pure computa",
    ),
    (
        "packages/jaxcb-native/README.md",
        "`src/jaxcb_native/cubic_root.py`, and nothing else: the modu",
    ),
    (
        "packages/jaxcb-native/README.md",
        "`jax.scipy.special` has no `jv`: `bessel_jn(z, v=...)` needs",
    ),
    (
        "packages/jaxcb-native/README.md",
        "Every function validates its arguments before tracing and ra",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "`src/jaxcb_pure/sin_scale.py`, and nothing else: the module ",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` on the ho",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "The log is never called, with or without `jit`: the call's r",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "An unused draw under `jit` never happens (the generator is n",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "Arguments and edge cases, the same in every jaxcb package (`",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "Its inputs are read-only views of XLA's argument buffers, it",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "To use a pattern, copy its file and `_handler.py` (the bridg",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` in a seco",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "On JAX 0.4.30, which has no `jax.ffi`, the package imports a",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/bessel_jv.py",
        "**Read-only inputs.** An input `Buffer` says `writeable=Fals",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/bessel_jv.py",
        "CPU only: `np.asarray` needs the `__array__` protocol, which",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/cubic_root.py",
        "**Read-only inputs.** An input `Buffer` says `writeable=Fals",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/cubic_root.py",
        "CPU only: `np.asarray` needs the `__array__` protocol, which",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        "**Read-only inputs.** An input `Buffer` says `writeable=Fals",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        "Under `jax.jit` a call whose result is unused is removed (so",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        '**Batching.** `vmap_method="expand_dims"`: `scipy.linalg.exp',
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        "CPU only: `np.asarray` needs the `__array__` protocol, which",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sin_scale.py",
        "**Read-only inputs.** An input `Buffer` says `writeable=Fals",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sin_scale.py",
        "`on_host` makes its input views read-only first, so a slip r",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sin_scale.py",
        "CPU only: `np.asarray` needs the `__array__` protocol, which",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sum_mean.py",
        "**Read-only input.** An input `Buffer` says `writeable=False",
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sum_mean.py",
        '**Batching.** `vmap_method="expand_dims"`: `on_host` reduces',
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/sum_mean.py",
        "CPU only: `np.asarray` needs the `__array__` protocol, which",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/computations.py",
        "**Outside `jit` only.** Each function checks its arguments a",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/computations.py",
        "`colocated_python` takes concrete `jax.Array`s only: under `",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/computations.py",
        "**Devices.** The arguments may live on any device, or be sha",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "Log every step of a loop to the host next to the devices wit",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "**The loop is Python.** `colocated_python` cannot be called ",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "**Every step, once, in order.** The steps are separate calls",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "**Built once per `log`.** The function sent to the host is b",
    ),
    (
        "packages/jaxcb-compute-on/src/jaxcb_compute_on/computations.py",
        "**No Python on the host.** Each function checks its argument",
    ),
    (
        "packages/jaxcb-compute-on/src/jaxcb_compute_on/computations.py",
        "**Transforms.** The support matrix on the site has the measu",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/log_steps.py",
        "Log every step of a `lax.scan` with `jax.debug.callback` or ",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/log_steps.py",
        "**Every step, in order.** With the default `ordered=True` th",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/log_steps.py",
        "`log` is compared by equality (the same function, or bound m",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "**Observer only.** A debug callback returns nothing to the c",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "**When it runs.** Once per call, also when the result is unu",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "**Arguments, results and errors** are those of the `jaxcb_na",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "`partitioned`: a bool; under a sharded `jax.jit`, `True` cal",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/progress.py",
        "Report a long `lax.scan` every `every` steps with `jax.debug",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/progress.py",
        "Like `log_steps`, but the host is reached only after steps `",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/progress.py",
        "**Every reported step, in order.** With the default `ordered",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/bessel_jv.py",
        "**Pure.** The handler (`std::cyl_bessel_j`, C++17) depends o",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/bessel_jv.py",
        '**Batching.** `vmap_method="broadcast_all"`: `v` and `z` are',
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/bessel_jv.py",
        "Under `jax.jit` a gradient is two handler calls (`J_{v-1}`, ",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/cubic_root.py",
        "**Pure.** The handler depends on its arguments only, and `ff",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/cubic_root.py",
        '**Batching.** `vmap_method="broadcast_all"`: `a` and `b` are',
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/cubic_root.py",
        "A NaN or infinite `a` or `b` gives NaN, as in every jaxcb pa",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/expm.py",
        "**Pure.** Both handlers (`expm` and its derivative `expm_vjp",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/expm.py",
        '**Batching.** `vmap_method="broadcast_all"`: the handler loo',
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/expm.py",
        "In the derivative the saved matrix is unbatched while the co",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/log_steps.py",
        "Log every step of a `lax.scan` from C++: `jax.ffi.ffi_call` ",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/log_steps.py",
        "**Every step, once, in order.** The call has no result; `has",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/log_steps.py",
        "For a log that must arrive under `grad` on every version, us",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/log_steps.py",
        "**One device.** XLA cannot partition a side-effecting call: ",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/sin_scale.py",
        "**Pure.** The handler depends on its arguments only, and `ff",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/sin_scale.py",
        '**Batching.** `vmap_method="broadcast_all"`: every operand r',
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/sin_scale.py",
        "The price is that an unbatched operand is tiled first (the s",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/sum_mean.py",
        "**Pure.** The handler depends on its argument only, and `ffi",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/sum_mean.py",
        '**Batching.** `vmap_method="broadcast_all"`: the handler red',
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/cubic_root.py",
        "`brentq` solves one scalar equation at a time, so the host l",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/host_draw.py",
        "**Each call advances the generator.** One host call per call",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/host_draw.py",
        "**dtype.** Always float32: the host draws `rng.standard_norm",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "Log every step of a `lax.scan` to the host with `jax.experim",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "**Every step, once, in order.** The log is written even when",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "With `ordered=False` every step still arrives once, but JAX ",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "**Batching.** `ordered=True` cannot be batched: `vmap` raise",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "`log` is compared by equality (the same function, or bound m",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/progress.py",
        "Report a long `lax.scan` to the host every `every` steps, wi",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/progress.py",
        "Like `log_steps`, but the host is reached only after steps `",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/progress.py",
        "**Batching.** none: an io_callback inside `lax.cond` cannot ",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "Contract: pure, traced once per shape, no host round trip; e",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "`jax.scipy.special.bessel_jn(z, v=v)` (JAX 0.10 and 0.12) ta",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "The integrand is smooth and periodic, so the rule converges ",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "Outside the range the aliased orders take over (128 nodes ca",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/cubic_root.py",
        "Contract: pure, traced once per shape, no host round trip; e",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/expm.py",
        "Contract: pure, traced once per shape, no host round trip; X",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/expm.py",
        "On JAX 0.4.30 `shard_map` of it raises `NotImplementedError`",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/expm.py",
        "Non-finite input: a matrix with a NaN or infinite entry come",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/sin_scale.py",
        "Contract: pure, traced once per shape, no host round trip; e",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/sum_mean.py",
        "Contract: pure, traced once per shape, no host round trip; e",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/bessel_jv.py",
        "**Pure.** `on_host` (`scipy.special.jv`) depends on its argu",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/cubic_root.py",
        "The real root of `x**3 + a*x - b` through `jax.pure_callback",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/cubic_root.py",
        "Two identical calls in one jitted program both ran on JAX 0.",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/expm.py",
        "Two identical calls in one jitted program both ran on JAX 0.",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/expm.py",
        '**Batching.** `vmap_method="expand_dims"`: `scipy.linalg.exp',
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/expm.py",
        "In the derivative, `on_host_vjp` broadcasts the saved matrix",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        "This is the tempting way to get host randomness into JAX, an",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        "**An unused draw never happens.** Under `jax.jit` a draw who",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        "**`jax.vmap` gives every batch element the same draw.** The ",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        '`vmap_method="sequential"` would mean one draw per batch ele',
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/log_steps.py",
        "COUNTER-EXAMPLE: logging every `lax.scan` step with `jax.pur",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/log_steps.py",
        "**The log is never called**, with or without `jax.jit`, and ",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/log_steps.py",
        "The loop is one module-level `jax.jit` with `n`, `log` and `",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/sin_scale.py",
        "Two identical calls in one jitted program both ran on JAX 0.",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/sin_scale.py",
        "**Transforms.** `jit`, `vmap`, loops and `cond` work; the su",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/sum_mean.py",
        "Two identical calls in one jitted program both ran on JAX 0.",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/sum_mean.py",
        '**Batching.** `vmap_method="expand_dims"`: `on_host` reduces',
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/bessel_jv.py",
        "**In place.** `on_host` gets NumPy views of XLA's own buffer",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/bessel_jv.py",
        "**What runs where.** The checks and reshapes run in Python w",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/cubic_root.py",
        "**In place, element by element.** `on_host` gets NumPy views",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/cubic_root.py",
        "**What runs where.** The checks and reshapes run in Python w",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**Into the output buffer, one copy.** Both get NumPy views o",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "Under `jax.jit` a call whose result is unused is removed (so",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        '**Batching.** `vmap_method="expand_dims"`: `scipy.linalg.exp',
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**What runs where.** The checks run in Python when the funct",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sin_scale.py",
        "**In place.** `on_host` gets NumPy views of XLA's own buffer",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sin_scale.py",
        "**What runs where.** The checks and the reshape run in Pytho",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sum_mean.py",
        "**In place, two outputs.** `on_host` gets NumPy views of XLA",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sum_mean.py",
        '**Batching.** `vmap_method="expand_dims"`: `on_host` reduces',
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sum_mean.py",
        "**What runs where.** The checks run in Python when the funct",
    ),
)
