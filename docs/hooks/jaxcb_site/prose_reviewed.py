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
LINK = "a link saying what the linked page holds; that page carries the checks of its claims"
HEADING = "a heading: names the case that the program and recorded output under it show"
LESSON = (
    "describes the lesson's program shown with it; what it prints is recorded under it on "
    "each JAX version (tests/learn)"
)
TASK = "an exercise's task or a question to the reader, not a claim"
PACKAGE = "what this package's own code does (its design), tested by tests/packages"

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
    (
        "docs/contributing/site.md",
        "Before any page is built (`on_files`) the engine (`statements.py`) runs every such check",
        GENERATED,
    ),
    (
        "docs/contributing/site.md",
        "It also fails when a contract bullet of `jaxcb_io` or `jaxcb_debug`",
        GENERATED,
    ),
    ("docs/index.md", "This site shows the same [computations](computations/index.m", GENERATED),
    ("docs/index.md", "Every variant × transform, aggregated the same way: first ov", GENERATED),
    (
        "docs/index.zh.md",
        "从[学习路径](learn/index.md)开始：一组短课，从第一个 `jax.pure_callback` 一直讲到",
        GENERATED,
    ),
    (
        "docs/index.zh.md",
        "本站用每一种能表达这些[计算](computations/index.md)的机制把它们各写一遍，并给出一张[对照表](",
        GENERATED,
    ),
    (
        "docs/index.zh.md",
        "**2. 主机是否只根据它的输入，计算出一个你要用到的*值*？",
        "a question of the chooser; not a claim",
    ),
    (
        "docs/index.zh.md",
        "**4. 你只是在*看*吗（打印、进度、调试）？",
        "a question of the chooser; not a claim",
    ),
    (
        "docs/index.zh.md",
        "**可以直接运行的答案**，每个都是完整的程序，附有它打印的内容：[经过 `jit` 的循环里的进度报告](recipe",
        GENERATED,
    ),
    (
        "docs/index.zh.md",
        "[性能页面](performance.md)测量了每种做法每次调用和每个元素的开销。",
        LINK,
    ),
    (
        "docs/index.zh.md",
        "这张表由最新提交的对照表生成：每种机制一列（取它的第一个变体）；每个单元格里，一行对应纯计算，一行对应副作用和非纯输入，",
        GENERATED,
    ),
    (
        "docs/index.zh.md",
        "每个变体 × 变换，都按同样的方式汇总：先对纯计算汇总，再对副作用和非纯输入汇总（在后者中没有可展示内容的变体不列出）。",
        GENERATED,
    ),
    (
        "docs/index.zh.md",
        "把鼠标悬停在单元格上或点按它，可以看到每个计算各自的结论；[完整的对照表](matrix.md)为每个计算各设一个单元格",
        GENERATED,
    ),
    (
        "docs/learn/00-why-leave-the-device.md",
        "JAX records every JAX operation done to it.",
        DEFINITION,
    ),
    (
        "docs/learn/00-why-leave-the-device.md",
        "[The mechanisms side by side](../matrix.md): every way compi",
        LINK,
    ),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "为什么不能在 `jax.jit` 里随便调用任何一个 Python 函数？",
        "the lesson's question; not a claim",
    ),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "JAX 会记录下对它做的每一个 JAX 运算。",
        DEFINITION,
    ),
    ("docs/learn/00-why-leave-the-device.zh.md", "你调用它三次。", CODE),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "它不需要数值：遇到追踪器时，它只是把这个运算记录下来。",
        DEFINITION,
    ),
    (
        "docs/learn/00-why-leave-the-device.zh.md",
        "[对照表](../matrix.md)：把编译后的 JAX 代码通往主机的每一种途径放在一起比较。",
        LINK,
    ),
    (
        "docs/learn/02-vmap-method.md",
        "`run` batches it over the 4 rows of `xs` under `jit`, with t",
        LESSON,
    ),
    (
        "docs/learn/02-vmap-method.md",
        "`broadcast_all`: one call, every argument full size",
        HEADING,
    ),
    (
        "docs/learn/02-vmap-method.md",
        "[`vmap_method` on the `pure_callback` page](../mechanisms/pu",
        LINK,
    ),
    (
        "docs/learn/02-vmap-method.zh.md",
        "`run` 在 `jit` 下对 `xs` 的 4 行做批处理，每一行都用同一个 `w`（`in_axes=(0, No",
        LESSON,
    ),
    ("docs/learn/02-vmap-method.zh.md", "`broadcast_all`：调用一次，每个参数都是完整大小", HEADING),
    (
        "docs/learn/02-vmap-method.zh.md",
        "让 `jax.vmap(erfcx)` 能够运行，并且整批只调用一次主机。",
        TASK,
    ),
    (
        "docs/learn/02-vmap-method.zh.md",
        "[`pure_callback` 页面上的 `vmap_method`](../mechanisms/pure_call",
        LINK,
    ),
    ("docs/learn/03-gradients.zh.md", "陷阱：规则里两次调用回调", HEADING),
    ("docs/learn/03-gradients.zh.md", "应该怎么做：只调用一次，重复使用结果", HEADING),
    (
        "docs/learn/03-gradients.zh.md",
        "只调用一次回调，把结果存进一个变量，再用这个变量构造导数。",
        ADVICE,
    ),
    (
        "docs/learn/04-effects.md",
        "The program counts the host calls right after the line retur",
        LESSON,
    ),
    (
        "docs/learn/04-effects.md",
        "Log the step number and the loss of every training step from",
        TASK,
    ),
    (
        "docs/learn/04-effects.md",
        "[`io_callback`](../mechanisms/io_callback.md): its contract,",
        LINK,
    ),
    (
        "docs/learn/04-effects.md",
        "[The matrix](../matrix.md): its *loops under grad* columns m",
        LINK,
    ),
    (
        "docs/learn/04-effects.zh.md",
        "在编译后的代码里做循环的模型，常常用 `lax.scan` 来实现，而循环体显然就是记录每一步的地方。",
        LESSON,
    ),
    (
        "docs/learn/04-effects.zh.md",
        "这里，状态 x 被 w 乘了五次，每一步都用一个有序的 `io_callback` 记录 x。",
        CODE,
    ),
    ("docs/learn/04-effects.zh.md", "能不能让回调直接接收 x 本身，也就是放在求导路径上？", TASK),
    (
        "docs/learn/04-effects.zh.md",
        "让循环返回每一步的值，把它们作为辅助结果（`has_aux=True`）从损失函数里传出来，再用一个放在 `value_",
        ADVICE,
    ),
    (
        "docs/learn/04-effects.zh.md",
        "在 `train` 内部记录每一个训练步的步数和损失，让主机看到 6 步中的全部 6 步。",
        TASK,
    ),
    (
        "docs/learn/04-effects.zh.md",
        "[`io_callback`](../mechanisms/io_callback.md)：它的约定，在每个 JAX 版",
        LINK,
    ),
    (
        "docs/learn/05-observing.md",
        "The condition here is one value per step, not a batch, so on",
        "explains the solution's output, shown under it (three lines of six, checked by its shows line)",
    ),
    (
        "docs/learn/05-observing.md",
        "[The matrix](../matrix.md): every callback under every trans",
        LINK,
    ),
    ("docs/learn/05-observing.zh.md", " 它没有返回结果：用它来查看，绝不要用它来计算。", ADVICE),
    ("docs/learn/05-observing.zh.md", "这个梯度下降循环每一步都打印一行。", CODE),
    (
        "docs/learn/05-observing.zh.md",
        " 这里的条件每步只有一个值，不是一批值，所以只有被选中的分支会运行。",
        "explains the solution's output, shown under it (three lines of six, checked by its shows line)",
    ),
    ("docs/learn/06-hot-path.md", "Write into `out`, never into an input", HEADING),
    (
        "docs/learn/06-hot-path.md",
        "[Performance](../performance.md): every mechanism's fixed co",
        LINK,
    ),
    (
        "docs/learn/06-hot-path.zh.md",
        " 然后它计时运行五次，取最快的一次；每次都先用 `block_until_ready()` 等结果算完，再停表。",
        LESSON,
    ),
    (
        "docs/learn/06-hot-path.zh.md",
        " `show` 在四种大小下（从 1 个元素到 10^6 个元素）打印每次调用的时间和每个元素的时间。",
        LESSON,
    ),
    ("docs/learn/06-hot-path.zh.md", "只写 `out`，绝不写输入", HEADING),
    (
        "docs/learn/06-hot-path.zh.md",
        "[性能](../performance.md)：每种机制的固定开销和每个元素的开销，并排比较。",
        LINK,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "A handler that cannot do its job returns an `ffi::Error` wit",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "The counter `calls` and the plain C function `SinScaleCalls`",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "`CMakeLists.txt` asks Python where the headers are (`jax.ffi",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "From an empty folder holding only `sin_scale.cc` and `CMakeL",
        LESSON,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "Write a second handler, `SinScaleF64`, in a new file `sin_sc",
        TASK,
    ),
    (
        "docs/learn/07-ffi-handler.md",
        "[Performance](../performance.md): the FFI next to every othe",
        LINK,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "处理函数如果无法完成任务，就返回一个带消息的 `ffi::Error`；否则返回 `Success()`。",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "计数器 `calls` 和普通 C 函数 `SinScaleCalls` 只是为了让本课能数出 XLA 运行了处理函数多",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "`CMakeLists.txt` 向 Python 询问头文件在哪里（`jax.ffi.include_dir()`），",
        CODE,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        " 在一个只放了 `sin_scale.cc` 和 `CMakeLists.txt` 的空文件夹里运行：",
        LESSON,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        "计时方法和[第 6 课](06-hot-path.md)一样：先调用一次，用于编译和预热；然后运行五次，取最快的一次；每",
        LESSON,
    ),
    (
        "docs/learn/07-ffi-handler.zh.md",
        " 在 `sin_scale.cc` 旁边新建一个文件 `sin_scale_f64.cc`，在里面写第二个处理函数 `S",
        TASK,
    ),
    (
        "docs/learn/08-devices-processes.md",
        "It gets its process id and a port on the command line, joins",
        LESSON,
    ),
    (
        "docs/learn/08-devices-processes.md",
        "The next step writes that program to a temporary folder, ask",
        LESSON,
    ),
    (
        "docs/learn/08-devices-processes.md",
        "[Callbacks across shards and processes](../distributed.md): ",
        LINK,
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 然后用 `NamedSharding` 这种分片方式（建立在只有一个轴的 `Mesh` 上），把一个含八个值的数组切成",
        LESSON,
    ),
    ("docs/learn/08-devices-processes.zh.md", "shard_map：每个分片调用一次", HEADING),
    ("docs/learn/08-devices-processes.zh.md", " 下面是每个进程运行的程序。", LESSON),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 它从命令行拿到自己的进程编号和一个端口，通过位于 `127.0.0.1`（只在本机）的协调器加入作业。",
        LESSON,
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        " 每个进程只有一个 CPU 设备，所以网格（mesh）跨越两个进程中的两个设备。",
        LESSON,
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        "下一步把这个程序写到一个临时文件夹里，向操作系统要一个空闲端口，用 `subprocess.Popen` 启动两个进程，",
        LESSON,
    ),
    ("docs/learn/08-devices-processes.zh.md", "陷阱：“只打印了一次，所以只运行了一次”", HEADING),
    (
        "docs/learn/08-devices-processes.zh.md",
        "回到本进程和四个设备的网格：在编译后的代码内部，把 `x` 的每个分片写到临时文件夹里各自的文件中，文件以分片的索引命名",
        TASK,
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        "写文件是一种副作用，所以要用 `io_callback`（第 4 课），并把它放在 `shard_map` 里，让每个分",
        ADVICE,
    ),
    (
        "docs/learn/08-devices-processes.zh.md",
        ' `jax.lax.axis_index("i")` 给出每个分片在网格轴上的索引。',
        DEFINITION,
    ),
    (
        "docs/learn/glossary.md",
        "`jax.effects_barrier()`: wait until every callback already s",
        DEFINITION,
    ),
    ("docs/learn/glossary.zh.md", "课程里用到的词，每个都只在这里定义一次。", GENERATED),
    (
        "docs/learn/glossary.zh.md",
        "在本站的每一页上，一个术语第一次出现时都会链接到这里。",
        GENERATED,
    ),
    (
        "docs/learn/glossary.zh.md",
        "把在循环各次迭代之间不变的计算移到循环外面，让它只运行一次。",
        DEFINITION,
    ),
    (
        "docs/learn/glossary.zh.md",
        "一个不含数据的值，JAX 在编译后的程序里把它从一个[有序副作用](#ordered-effect)传给下一个，让每个副",
        DEFINITION,
    ),
    ("docs/learn/glossary.zh.md", " 你永远不需要自己创建它。", DEFINITION),
    (
        "docs/learn/glossary.zh.md",
        "把一个参数的内存交给编译好的程序：`jax.jit(f, donate_argnums=0)` 让 XLA 用第一个参数",
        DEFINITION,
    ),
    ("docs/learn/glossary.zh.md", "[性能页](../performance.md)统计每次调用的次数。", LINK),
    (
        "docs/learn/index.md",
        "Every lesson is one script that imports only JAX, NumPy and ",
        GENERATED,
    ),
    (
        "docs/learn/index.md",
        "**Read it here.** Every program on these pages is included f",
        GENERATED,
    ),
    ("docs/learn/index.md", "After the path: [which callback do I need?](../index.md) to ", LINK),
    (
        "docs/learn/index.zh.md",
        "每节课都是一个脚本，只导入 JAX、NumPy 和 SciPy；在没有 GPU 的机器上，它在 CPU 上运行：",
        GENERATED,
    ),
    (
        "docs/learn/index.zh.md",
        "** 这些页面上的每个程序都取自该课的脚本，程序下方的每段输出都是这个脚本实际打印的结果，在输出上方标出的每个 JAX ",
        GENERATED,
    ),
    (
        "docs/learn/index.zh.md",
        "](../index.md)为你自己的程序选一种回调；读一读[常见陷阱](../gotchas.md)；再看[对照表](",
        LINK,
    ),
    (
        "docs/learn/glossary.zh.md",
        "多个进程（在一台或多台机器上）可以通过 `jax.distributed.initialize` 加入同一个 JAX 作",
        "the glossary's definition of a multi-process job; lesson 8 shows each process running its own host calls (checked by its shows lines)",
    ),
    (
        "docs/mechanisms/colocated_python.md",
        "The [other roads](../roads.md#colocated-python) page shows t",
        LINK,
    ),
    (
        "docs/mechanisms/colocated_python.md",
        "**A loop in Python.** `log_steps` cannot log from inside a c",
        PACKAGE,
    ),
    (
        "docs/mechanisms/compute_on.md",
        "The [other roads](../roads.md#compute-on) page shows the API",
        LINK,
    ),
    (
        "docs/mechanisms/debug.md",
        "Progress bars and logs inside loops ([`progress`](../computa",
        "a list of uses (advice); the gating by lax.cond is the progress pattern's design",
    ),
    (
        "docs/mechanisms/ffi.md",
        "**Typed by the handler.** Each handler dispatches on the ele",
        PACKAGE,
    ),
    (
        "docs/mechanisms/ffi.md",
        "When the host computation is **hot** (called in a loop, or p",
        ADVICE,
    ),
    (
        "docs/mechanisms/ffi.md",
        "An effect can take this road too: the [logger](#logger) belo",
        PACKAGE,
    ),
    (
        "docs/mechanisms/index.md",
        "Their documentation promises different things (pure or not, ",
        GENERATED,
    ),
    (
        "docs/mechanisms/native.md",
        "**Not for effects.** Compiled code cannot log, write a file ",
        PACKAGE,
    ),
    (
        "docs/mechanisms/pure_callback.md",
        "A pure numerical function JAX lacks: a SciPy special functio",
        ADVICE,
    ),
    (
        "docs/mechanisms/pure_callback.md",
        "every argument tiled to the full batch",
        "a row of the vmap_method table (JAX's pure_callback docstring); the generated calls table under it measures each row's host calls and argument types",
    ),
    (
        "docs/mechanisms/pure_callback.md",
        "the host code needs equal shapes (it cannot broadcast)",
        ADVICE,
    ),
    ("docs/mechanisms/pure_callback.md", "the host code only takes one problem at a time", ADVICE),
    (
        "docs/mechanisms/pure_callback.md",
        "never under `vmap`: it raises",
        "a row of the vmap_method table (JAX's pure_callback docstring); the generated calls table under it measures each row's host calls and argument types",
    ),
    (
        "docs/mechanisms/pyffi.md",
        "A buffer of a type NumPy cannot view (bfloat16) is refused t",
        PACKAGE,
    ),
    (
        "docs/mechanisms/pyffi.md",
        "**Batching** is the `vmap_method` you give (`expand_dims` in",
        PACKAGE,
    ),
    (
        "docs/mechanisms/pyffi.md",
        "The bridge, cut down to float32 buffers, and one handler; `j",
        CODE,
    ),
    (
        "docs/api/index.md",
        "Every mechanism package has the same function names with the",
        DEFINITION,
    ),
    ("docs/api/index.md", "[`jaxcb_legacy`](legacy.md): `host_callback` and `pure_callb", PACKAGE),
    ("docs/check.md", "A path that cannot be checked (missing, unreadable, a broken", PACKAGE),
    ("docs/check.md", "Every row is generated from `jaxcb_check.checker.RULES`, the", GENERATED),
    ("docs/check.md", "A rule marked **heuristic** guesses at something the source ", DEFINITION),
    ("docs/check.md", "What `jaxcb-check` cannot see: functions and `vmap`s in othe", PACKAGE),
    ("docs/check.md", "Its corpus, `tests/core/check_corpus/`, holds files written ", PACKAGE),
    ("docs/claims.md", "The legacy rows (`host_callback/*`, `pure_callback/vectorize", GENERATED),
    ("docs/claims.md", "One row per claim: its verdict in each committed matrix file", GENERATED),
    (
        "docs/computations/cubic_root.md",
        "Its derivative comes from the implicit function theorem, wri",
        CODE,
    ),
    (
        "docs/computations/progress.md",
        "A long `lax.scan` that reports to the host only every `every",
        CODE,
    ),
    (
        "docs/computations/progress.md",
        "Below: the same computation written with each mechanism, and",
        GENERATED,
    ),
    (
        "docs/computations/sin_scale.md",
        "Small, elementwise and differentiable, it is the reference s",
        DEFINITION,
    ),
    ("docs/edges.md", "Each section below is a script you can copy and run as it is", GENERATED),
    (
        "docs/edges.zh.md",
        "下面每一节都是一个你可以复制下来原样运行的脚本（只用 JAX、NumPy 和标准库），它尝试其中一种情况，后面是一张表格",
        GENERATED,
    ),
    ("docs/edges.zh.md", "多次调用，只编译一次 { #compile-once }", HEADING),
    (
        "docs/edges.zh.md",
        "一个调用主机的、经过 `jit` 的函数：在三次调用中，它被追踪了多少次，主机又运行了多少次？",
        Q,
    ),
    ("docs/edges.zh.md", "每个元素都运行同样的三步；观察回调运行了多少次？", Q),
    (
        "docs/edges.zh.md",
        "主机把 7 写入输出；这个函数被调用两次，一次使用它的结果，一次不使用。",
        CODE,
    ),
    (
        "docs/edges.zh.md",
        "同一个会失败的函数被调用两次，第二次使用的是它在第一次调用时编译好的程序。",
        CODE,
    ),
    ("docs/errors.md", "The details of every case:", GENERATED),
    (
        "docs/errors.zh.md",
        "每个单元格是调用方捕获到的异常；其下方是保留下来的东西：原来的类型（在 `__cause__`/`__context__",
        GENERATED,
    ),
    (
        "docs/errors.zh.md",
        "下面有两种办法，每种都是一个你可以运行的脚本，附有它在每个 JAX 版本上打印的内容；然后是一个库的做法，与 `chec",
        GENERATED,
    ),
    (
        "docs/errors.zh.md",
        "同一个检查（输入为负数），分别用 `error_if` 和 `checkify.check`（经由 `checkify.",
        GENERATED,
    ),
    (
        "docs/errors.zh.md",
        "**`block_until_ready()` 与 `jax.effects_barrier()` 对比**：对一个观察",
        CODE,
    ),
    ("docs/matrix.md", "Every mechanism variant × computation × transform, **run** o", GENERATED),
    ("docs/matrix.md", "✅ the transformed function ran and matched the NumPy/SciPy r", DEFINITION),
    ("docs/matrix.md", "↗ measured in another row: this row is measured under some c", DEFINITION),
    (
        "docs/matrix.zh.md",
        "每个机制变体 × 计算 × 变换，都由 `tests/matrix/` 中的共享测试，在切换器中选定的 JAX 版本上*",
        GENERATED,
    ),
    (
        "docs/matrix.zh.md",
        "✅ 变换后的函数运行了，结果与 NumPy/SciPy 的参考值一致；对于副作用（一行日志、一次进度报告、一次从主机生成",
        DEFINITION,
    ),
    (
        "docs/matrix.zh.md",
        "↗ 在另一行中测量：这一行只在某些列下测量，同一机制的另一行在这个变换下测量了这个计算（详细信息里指出了是哪一行）。",
        DEFINITION,
    ),
    (
        "docs/matrix.zh.md",
        "切换器选择一个已提交的数据文件（每个文件在被选中时才加载）；筛选器缩小显示的行：一个机制系列，或其中的一个变体，以及一个",
        GENERATED,
    ),
    (
        "docs/matrix.zh.md",
        "`docs/data/matrix/` 下的每个文件都是 `jaxcb matrix --write` 的一次运行结果。",
        GENERATED,
    ),
    ("docs/recipes.md", "Each runs as it is with JAX, NumPy and the standard library,", GENERATED),
    ("docs/recipes.md", "It calls your Python `report` function every `every` steps a", CODE),
    (
        "docs/recipes.md",
        "Each step's loss, gradient norm and other metrics leave the ",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    (
        "docs/recipes.md",
        "For output per shard, an `io_callback` inside `jax.shard_map",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    ("docs/recipes.md", "**A SciPy function with gradients**: `jax.pure_callback` wit", LINK),
    ("docs/recipes.md", "**Writing a value to the host at every step**: [gotchas 1–4]", LINK),
    (
        "docs/recipes.zh.md",
        "针对反复遇到的任务的程序，每个都是完整的：复制它，运行它，留下你需要的那个函数。",
        GENERATED,
    ),
    (
        "docs/recipes.zh.md",
        "每个程序只用 JAX、NumPy 和标准库，原样就能运行；程序下方是它在本站涵盖的每个 JAX 版本上打印的内容（CPU",
        GENERATED,
    ),
    (
        "docs/recipes.zh.md",
        "在 `jax.vmap` 下，批中的每个成员各自报告，靠一个和数据一起被映射的成员编号来区分彼此。",
        CODE,
    ),
    (
        "docs/recipes.zh.md",
        "[jax-tqdm](https://github.com/jeremiecoullon/jax-tqdm) 从同一个位",
        "describes the API of jax-tqdm, the library it links, not a behaviour of JAX",
    ),
    (
        "docs/recipes.zh.md",
        "每一步的损失、梯度范数和其他指标都作为普通输出离开程序（即 `jax.value_and_grad` 的 `has_au",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    (
        "docs/recipes.zh.md",
        "在有多个进程的作业中，一行由 `jax.process_index() == 0` 把关的日志在整个作业中只出现一次。",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    (
        "docs/recipes.zh.md",
        "要按分片输出，就在 `jax.shard_map` 里放一个 `io_callback`，并把分片的下标（`lax.ax",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    (
        "docs/recipes.zh.md",
        "这个脚本在 127.0.0.1 上启动它自己的两个进程，二者通过 `jax.distributed.initialize",
        CODE,
    ),
    (
        "docs/recipes.zh.md",
        "**带梯度的 SciPy 函数**：`jax.pure_callback` 加上一条 `jax.custom_jvp` ",
        LINK,
    ),
    (
        "docs/recipes.zh.md",
        "**每一步都把一个值写到主机上**：[陷阱 1–4](gotchas.md#dce)，每个都附有正确做法的程序。",
        LINK,
    ),
    (
        "docs/roads.md",
        "Sometimes you need less than that, or something else: only p",
        "names the needs that the sections below answer; not a claim about JAX",
    ),
    ("docs/roads.md", "The first four sections show complete scripts, each followed", GENERATED),
    ("docs/roads.md", "The same marks on the site's five computations, measured und", LINK),
    (
        "docs/roads.md",
        "The releases before it took only the compute type and were u",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    ("docs/roads.md", "Call it on every result you will read, do other host work, t", ADVICE),
    ("docs/roads.md", "What a raising host function does instead, in six places and", LINK),
    (
        "docs/roads.zh.md",
        "有时你需要的比这少，或者需要的是别的东西：只把一部分算术放到主机的处理器上，只是提前把结果复制到主机内存，或者在设备旁边",
        "names the needs that the sections below answer; not a claim about JAX",
    ),
    (
        "docs/roads.zh.md",
        "对每一种需要，JAX 都有一个办法；它们都不会在编译后的程序里运行 Python（第四节的那个标志除外，见那里）。",
        DEFINITION,
    ),
    (
        "docs/roads.zh.md",
        "前四节展示完整的脚本，每个脚本后面是它在本站涵盖的每个 JAX 版本上打印的内容（CPU，单个进程；本站的测试会重新运行",
        GENERATED,
    ),
    (
        "docs/roads.zh.md",
        "它们展示 JAX 接受什么，以及 `jit`、`grad`、`vmap` 和 `lax.scan` 怎样处理它；它们无法",
        "the scripts run on the CPU (the site's behaviour session), so no speed-up can show",
    ),
    (
        "docs/roads.zh.md",
        '`compute_on(compute_type="device_host", ...)` 把一个函数的运算标记为在主机',
        CODE,
    ),
    (
        "docs/roads.zh.md",
        "同样的标记用在本站的五个计算上，在每个变换下与各种回调并列实测，见 [compute_on 的页面](mechanism",
        LINK,
    ),
    (
        "docs/roads.zh.md",
        "在当前的形式中，`compute_on` 包装一个函数，并且需要 `out_memory_spaces=`，即每个结果应",
        DEFINITION,
    ),
    (
        "docs/roads.zh.md",
        "在此之前的版本只接受计算类型，并作为上下文管理器包在这些运算外面使用。",
        "describes the script shown with it; what it printed on each JAX version is recorded under it, and the site's tests run it again",
    ),
    (
        "docs/roads.zh.md",
        "对你要读取的每个结果调用它，去做主机上的其他工作，然后再读取它们（`np.asarray(x)`）；脚本显示了这个调用返",
        ADVICE,
    ),
    ("docs/roads.zh.md", "上面的三次调用来自同一个线程。", CODE),
    (
        "docs/roads.zh.md",
        '如果从两个线程同时调用，每次调用在向文件写入 "start" 和 "end" 之间休眠 0.3 秒：',
        CODE,
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
        DEFINITION,
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "It wraps its input buffers in read-only NumPy views (no copy",
        PACKAGE,
    ),
    ("packages/jaxcb-buffer/README.md", "Hence the read-only views.", PACKAGE),
    (
        "packages/jaxcb-buffer/README.md",
        "Arguments and edge cases, the same in every jaxcb package (`",
        PACKAGE,
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "`log_steps`, `progress` and `host_draw` are listed unsupport",
        PACKAGE,
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "The package still imports (`jaxcb_buffer.HAS_BUFFER_CALLBACK",
        PACKAGE,
    ),
    (
        "packages/jaxcb-debug/README.md",
        "`src/jaxcb_debug/log_steps.py`, and nothing else: the module",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "every step of a `lax.scan` reaches `log(k, x_k)` / prints `s",
        "a row of the package's table of patterns; the module's docstring states this contract with its jaxcb:expect check beside it",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "only every `every` steps: the callback sits in a `lax.cond` ",
        "a row of the package's table of patterns; the module's docstring states this contract with its jaxcb:expect check beside it",
    ),
    (
        "packages/jaxcb-debug/README.md",
        "`host_draw` has no debug version: a debug callback cannot re",
        DEFINITION,
    ),
    (
        "packages/jaxcb-debug/README.md",
        "The five observers are one module, `observers.py`: each comp",
        PACKAGE,
    ),
    (
        "packages/jaxcb-io/README.md",
        "Every computation of the jaxcb catalog through [`jax.experim",
        DEFINITION,
    ),
    (
        "packages/jaxcb-io/README.md",
        "`src/jaxcb_io/log_steps.py`, and nothing else: the module ho",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-io/README.md",
        "every step of a `lax.scan` reaches the host `log(k, x_k)`, o",
        "a row of the package's table of patterns; the module's docstring states this contract with its jaxcb:expect check beside it",
    ),
    (
        "packages/jaxcb-io/README.md",
        "the host is reached only every `every` steps: the callback s",
        "a row of the package's table of patterns; the module's docstring states this contract with its jaxcb:expect check beside it",
    ),
    (
        "packages/jaxcb-io/README.md",
        "ordered `log_steps` over 10⁴ steps (eagerly, under `jit`, in",
        PACKAGE,
    ),
    (
        "packages/jaxcb-io/README.md",
        "Arguments and edge cases, the same in every jaxcb package (`",
        PACKAGE,
    ),
    (
        "packages/jaxcb-io/README.md",
        "To differentiate, use `jaxcb-pure` (pure computations) or `j",
        ADVICE,
    ),
    (
        "packages/jaxcb-io/README.md",
        "Each module's docstring states its contract; the site's supp",
        LINK,
    ),
    (
        "packages/jaxcb-native/README.md",
        "The baseline of [jaxcb](../../README.md): every pure computa",
        DEFINITION,
    ),
    (
        "packages/jaxcb-native/README.md",
        "`src/jaxcb_native/cubic_root.py`, and nothing else: the modu",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-native/README.md",
        "Every function validates its arguments before tracing and ra",
        PACKAGE,
    ),
    (
        "packages/jaxcb-pure/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
        DEFINITION,
    ),
    (
        "packages/jaxcb-pure/README.md",
        "`src/jaxcb_pure/sin_scale.py`, and nothing else: the module ",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` on the ho",
        "a cell of the package's table: the transforms a custom_vjp rule supports (reverse mode only, by JAX's definition of custom_vjp); the matrix's expm row measures it",
    ),
    (
        "packages/jaxcb-pure/README.md",
        "Arguments and edge cases, the same in every jaxcb package (`",
        PACKAGE,
    ),
    (
        "packages/jaxcb-buffer/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` in a seco",
        "a cell of the package's table: the transforms a custom_vjp rule supports (reverse mode only, by JAX's definition of custom_vjp); the matrix's expm row measures it",
    ),
    (
        "packages/jaxcb-check/README.md",
        "A file that cannot be checked never passes silently.",
        PACKAGE,
    ),
    (
        "packages/jaxcb-colocated/README.md",
        "To use a pattern, copy its module, `src/jaxcb_colocated/comp",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "Another road of [jaxcb](../../README.md): every pure computa",
        DEFINITION,
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "To use a pattern, copy `src/jaxcb_compute_on/computations.py",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-compute-on/README.md",
        "Every function first checks its arguments as `jaxcb_native` ",
        PACKAGE,
    ),
    (
        "packages/jaxcb-core/README.md",
        "typed records, load and validate for every file under `docs/",
        DEFINITION,
    ),
    (
        "packages/jaxcb-core/README.md",
        "`jaxcb check`: the migration checker for users' code (standa",
        DEFINITION,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
        DEFINITION,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "To reuse one, copy these three files into one folder: `src/j",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "That puts `lib<name>.so` beside `<name>.py`, and `import <na",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`custom_vjp`, backward in C++: `L(aᵀ, g)` = upper-right bloc",
        "a cell of the package's table: the transforms a custom_vjp rule supports (reverse mode only, by JAX's definition of custom_vjp); the matrix's expm row measures it",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Every handler dispatches on the dtype: float32 and float64.",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The Python wrappers convert float16 and bfloat16 (and other ",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The process goes on: a handler error is never a crash.",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "A non-finite input is not an error: a matrix with a NaN or i",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "**Why `broadcast_all`.** It hands every operand to the handl",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`expand_dims` would need stride logic in every handler; with",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`sin_scale.cc`, `sum_mean.cc` and `expm.cc` mark their loops",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "`tests/packages/test_ffi.py` also builds the three files as ",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "With a jaxlib before 0.5.0 (no `jax.ffi`) CMake builds nothi",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The libraries go into each environment's `site-packages/jaxc",
        PACKAGE,
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "Every pure computation of the [jaxcb](../../README.md) catal",
        DEFINITION,
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "Its inputs are read-only views of XLA's argument buffers, it",
        PACKAGE,
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "To use a pattern, copy its file into your project, a package",
        "the package's design: the copy-alone test (tests/packages) runs each module alone from an empty folder",
    ),
    (
        "packages/jaxcb-pyffi/README.md",
        "`custom_vjp`, backward pass `expm_frechet(a^T, g)` in a seco",
        "a cell of the package's table: the transforms a custom_vjp rule supports (reverse mode only, by JAX's definition of custom_vjp); the matrix's expm row measures it",
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "Where XLA gives no pool, the handler's thread does every chu",
        PACKAGE,
    ),
    (
        "packages/jaxcb-ffi/README.md",
        "The headers come from jaxlib (`jaxlib/include/xla/ffi/api`, ",
        PACKAGE,
    ),
    (
        "packages/jaxcb-buffer/src/jaxcb_buffer/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**Non-finite input.** A matrix with a NaN or infinite entry ",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/expm.py",
        "Non-finite input: a matrix with a NaN or infinite entry come",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/cubic_root.py",
        "A NaN or infinite `a` or `b` gives NaN, as in every jaxcb pa",
        "what every jaxcb package returns for non-finite input, tested by tests/packages/test_edge_cases.py",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/computations.py",
        "**Devices.** The arguments may live on any device, or be sha",
        PACKAGE,
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "Log every step of a loop to the host next to the devices wit",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-colocated/src/jaxcb_colocated/log_steps.py",
        "**Built once per `log`.** The function sent to the host is b",
        PACKAGE,
    ),
    (
        "packages/jaxcb-compute-on/src/jaxcb_compute_on/computations.py",
        "**No Python on the host.** Each function checks its argument",
        CODE,
    ),
    (
        "packages/jaxcb-compute-on/src/jaxcb_compute_on/computations.py",
        "**Transforms.** The support matrix on the site has the measu",
        LINK,
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/log_steps.py",
        "Log every step of a `lax.scan` with `jax.debug.callback` or ",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/log_steps.py",
        "`log` is compared by equality (the same function, or bound m",
        PACKAGE,
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/observers.py",
        "**Observer only.** A debug callback returns nothing to the c",
        CODE,
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/progress.py",
        "Report a long `lax.scan` every `every` steps with `jax.debug",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-debug/src/jaxcb_debug/progress.py",
        "Like `log_steps`, but the host is reached only after steps `",
        CODE,
    ),
    (
        "packages/jaxcb-ffi/src/jaxcb_ffi/log_steps.py",
        "Log every step of a `lax.scan` from C++: `jax.ffi.ffi_call` ",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/cubic_root.py",
        "`brentq` solves one scalar equation at a time, so the host l",
        CODE,
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/host_draw.py",
        "**dtype.** Always float32: the host draws `rng.standard_norm",
        PACKAGE,
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "Log every step of a `lax.scan` to the host with `jax.experim",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/log_steps.py",
        "`log` is compared by equality (the same function, or bound m",
        PACKAGE,
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/progress.py",
        "Report a long `lax.scan` to the host every `every` steps, wi",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-io/src/jaxcb_io/progress.py",
        "Like `log_steps`, but the host is reached only after steps `",
        CODE,
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "The integrand is smooth and periodic, so the rule converges ",
        "the numerical method of the code below; tests/packages/test_native.py checks its accuracy range against scipy.special",
    ),
    (
        "packages/jaxcb-native/src/jaxcb_native/bessel_jv.py",
        "Outside the range the aliased orders take over (128 nodes ca",
        "the numerical method of the code below; tests/packages/test_native.py checks its accuracy range against scipy.special",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/cubic_root.py",
        "The real root of `x**3 + a*x - b` through `jax.pure_callback",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        "This is the tempting way to get host randomness into JAX, an",
        DEFINITION,
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/host_draw.py",
        '`vmap_method="sequential"` would mean one draw per batch ele',
        CODE,
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/log_steps.py",
        "COUNTER-EXAMPLE: logging every `lax.scan` step with `jax.pur",
        "the module's one-line summary: what the pattern does (its design)",
    ),
    (
        "packages/jaxcb-pure/src/jaxcb_pure/log_steps.py",
        "The loop is one module-level `jax.jit` with `n`, `log` and `",
        PACKAGE,
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/bessel_jv.py",
        "**What runs where.** The checks and reshapes run in Python w",
        CODE,
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/cubic_root.py",
        "**What runs where.** The checks and reshapes run in Python w",
        CODE,
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**What runs where.** The checks run in Python when the funct",
        CODE,
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sin_scale.py",
        "**What runs where.** The checks and the reshape run in Pytho",
        CODE,
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sum_mean.py",
        "**What runs where.** The checks run in Python when the funct",
        CODE,
    ),
    (
        "docs/contributing/performance-targets.md",
        "What the project aims for in the benchmarks ([the performanc",
        GENERATED,
    ),
    ("docs/contributing/performance-targets.md", "Every CPU side by side", HEADING),
    (
        "docs/contributing/performance-targets.md",
        "Each target measured in every committed CPU file, with its r",
        GENERATED,
    ),
    (
        "docs/contributing/performance-targets.md",
        "A target met on every processor is one a contributor can exp",
        ADVICE,
    ),
    (
        "docs/contributing/site.md",
        "Every table, code tab, verdict and plot on this site is gene",
        GENERATED,
    ),
    ("docs/contributing/site.md", "Every directive", HEADING),
    (
        "docs/contributing/test-timings.md",
        "`PYTEST_ADDOPTS` reaches pytest in every env: `PYTEST_ADDOPT",
        DEFINITION,
    ),
    (
        "docs/contributing/test-timings.md",
        "Every one of them checks committed data or a package against",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "`jaxcb matrix --processes 2` starts the processes on this ma",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "Each process runs the same cells in the same order (an SPMD ",
        DEFINITION,
    ),
    ("docs/distributed.md", "A mesh spans every device of every process.", DEFINITION),
    (
        "docs/distributed.md",
        "**jit, input split over processes**: a global array split al",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "**… out_shardings=P()**: the same, asking for the result on ",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "**shard_map over every device**: one batch element per devic",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "A result is read on every process the way a user reads it: `",
        DEFINITION,
    ),
    (
        "docs/distributed.md",
        "Each cell: ✅ right on every process, ⚠️ ran but some process",
        DEFINITION,
    ),
    ("docs/distributed.md", "Every row and column, aggregated over the computations:", GENERATED),
    (
        "docs/distributed.md",
        "A bar fed from the process-local part of a training loop (th",
        "every process runs the same Python program (a multi-process JAX job is SPMD, as the page says at its top): advice that follows from it",
    ),
    ("docs/distributed.md", "To measure a real cluster it would need: the coordinator's a", ADVICE),
    (
        "docs/distributed.md",
        "A cell that a process does not finish within the timeout, or",
        PACKAGE,
    ),
    (
        "docs/distributed.md",
        "`tox -e multiprocess` checks this with a test-only row that ",
        PACKAGE,
    ),
    ("docs/run.md", "Every computation page has, under each mechanism's tab, a co", GENERATED),
    ("docs/run.md", "The scripts are the files under `docs/examples/<package>/`; ", DEFINITION),
    ("docs/run.md", "The others need only JAX.", DEFINITION),
    ("docs/run.md", "The record holds the hash of each file it ran: the site buil", GENERATED),
    ("docs/run.md", "An example runs where its package's registry says the mechan", GENERATED),
    ("docs/run.md", "So the examples are plain scripts, the test is about 200 lin", DEFINITION),
    ("docs/run.md", "The learning path's lessons are scripts too: `docs/learn/les", DEFINITION),
    ("docs/run.md", 'Each code cell carries one tag (`# %% tags=["trap"]`); a les', GENERATED),
    ("docs/run.md", "Each lesson runs in a fresh process with one CPU device, in ", GENERATED),
    ("docs/run.md", "The glossary (`docs/learn/glossary.md` and `glossary.zh.md`,", GENERATED),
    (
        "docs/distributed.md",
        "An effect, `log_steps`: every step of a scan owes one record",
        DEFINITION,
    ),
    (
        "docs/contributing/test-timings.md",
        "Tried and not kept: running the packages' tests on JAX 0.12.",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "That day the machine itself ran slower: in a quiet `tox -e b",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "Both aims are met on the machine of 2026-12-05: a 2-core AMD",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "`scripts/dev test`, new machine: tox, tox-uv and uv, Debian'",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "Where the time goes on this machine, each part alone (wall /",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "Getting under 12 minutes here would take about a quarter les",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "The matrix pool starts a cell the committed file records as ",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "Most of the time goes to checking the published data on thre",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/contributing/test-timings.md",
        "Two compiler settings were measured on the 0.12.0.1 matrix a",
        "a dated record of a timing run on the machine its section names (contributors' notes), not a claim about JAX",
    ),
    (
        "docs/performance.md",
        "This page measures that round trip for every mechanism in th",
        GENERATED,
    ),
    (
        "docs/performance.md",
        "A **no rule** column is the bare call of a mechanism with th",
        DEFINITION,
    ),
    (
        "docs/performance.md",
        "The **jitted native no-op** is `jax.jit` of a function that ",
        DEFINITION,
    ),
    (
        "docs/performance.md",
        "A run above the quiet threshold is marked here and in every ",
        GENERATED,
    ),
    ("docs/performance/calls.md", "Every computation, every mechanism", HEADING),
    (
        "docs/performance/calls.md",
        "Rows are computation × number of elements per argument (`exp",
        GENERATED,
    ),
    (
        "docs/performance/vmap.md",
        "`jax.vmap` over batches of the catalog's inputs with every v",
        GENERATED,
    ),
    (
        "docs/performance/loops.md",
        "**Per step**: the `log_steps` patterns send every state to t",
        DEFINITION,
    ),
    (
        "docs/performance/loops.md",
        "**Throttled**: the `progress` patterns report from one branc",
        DEFINITION,
    ),
    (
        "docs/performance/loops.md",
        "Every variant called without `jax.jit`, on NumPy arguments, ",
        GENERATED,
    ),
    (
        "docs/performance/loops.md",
        "An eager call that compiled again every time would show here",
        "says how to read the table below (what a recompile would look like), not a claim about JAX",
    ),
    (
        "docs/performance/others.md",
        "The two source texts this project checks ([the claims page](",
        DEFINITION,
    ),
    (
        "docs/performance.md",
        "**pytest-benchmark**, in `tests/bench/`, off in the default ",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "The session first waits, for a bounded time, for the machine",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "Every case runs under `jax.jit` on arguments already on the ",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "The first call compiles and is not timed, so **compile time ",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "Fast calls are repeated within a round; every case gets the ",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "The tables show the **median**, the tooltips the **interquar",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "**Host calls** are counted on one untimed call after compili",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "**Page faults.** The untimed call that counts host calls als",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "**One file per processor and vector width.** Processors sold",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    (
        "docs/performance.md",
        "A run that does not cover the whole suite (`-k`, a failure) ",
        "how the benchmarks are run and shown (the bench session's method, tests/bench and jaxcb_core.bench), not a behaviour of JAX",
    ),
    ("docs/gotchas.md", "Each gotcha is two complete scripts you can copy and run as ", GENERATED),
    (
        "docs/gotchas.md",
        "XLA may move a loop-invariant computation out of the loop; t",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    ("docs/gotchas.md", "The matrix's *loops under grad* columns measure the same for", LINK),
    ("docs/gotchas.md", "**Instead**, observe outside the checkpointed function: only", ADVICE),
    ("docs/gotchas.md", "Every mechanism and context: [when the host raises](errors.m", LINK),
    (
        "docs/gotchas.md",
        "Python formats an f-string when the function is traced, befo",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    ("docs/gotchas.md", "**Instead**, give `jax.debug.print` a format string and the ", ADVICE),
    (
        "docs/gotchas.md",
        "The input says it is read-only, but `np.asarray` of it is a ",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "每个陷阱都是两个完整的脚本，你可以复制下来原样运行（只用 JAX、NumPy 和标准库）：先是陷阱，然后是修正。",
        GENERATED,
    ),
    (
        "docs/gotchas.zh.md",
        "每个脚本下方是它在本站涵盖的每个 JAX 版本上打印的内容，它打印的每一行占表格的一行；表格里没有任何内容是手工输入的。",
        GENERATED,
    ),
    (
        "docs/gotchas.zh.md",
        "XLA 可能把循环中不变的计算移到循环外面；对纯回调来说这是允许的，所以主机只运行一次，而不是每一步都运行。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：当主机必须在每一步都运行时，使用 `io_callback`：副作用不会被移到循环外面。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：不要在被求导的循环内部调用主机：把每一步的值作为辅助输出（`has_aux=True`）返回，在这一",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在被 checkpoint 的函数外面观察：只有它里面的东西才会再运行一次。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在 `cond` 之后只调用一次回调，并把条件传给它，这样主机就知道每个成员走的是哪个分支。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "在 `shard_map` 之外，回调不会被拆分：JAX 把各个分片汇集起来，主机只运行一次，处理的是整个数组。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：在 `jax.shard_map` 里调用它：主机对每个设备运行一次，处理的是该设备上的那一块。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "Python 在函数被追踪时、还没有具体值的时候就格式化了 f-string：每次调用打印的都是追踪器。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：给 `jax.debug.print` 传一个格式字符串和值；它会在每次调用时在主机上把值填进去。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "为另一个进程或另一台机器保存编译好的函数：JAX 能序列化编译后的代码，但不能序列化 Python 函数。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    ("docs/gotchas.zh.md", "**应该这样写**：只导出 JAX 的部分，在它的外面调用主机函数。", ADVICE),
    (
        "docs/gotchas.zh.md",
        '**应该这样写**：传入 `vmap_method`：`"sequential"` 对批中的每个成员调用一次主机，`"e',
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：当主机调用的次数很重要时，使用 `io_callback`：每次调用都是一个副作用，每一次都会运行。",
        ADVICE,
    ),
    (
        "docs/gotchas.zh.md",
        "`vmap` 不会对主机调用做批处理：主机对批中的每个成员运行一次，每次处理一行。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "输入声称自己是只读的，但对它调用 `np.asarray` 得到的是一个可写的视图，往那里写入会改变调用方的数组。",
        "what the gotcha's script shows: the output recorded under it on each JAX version (docs/data/behaviour), which the site's tests rerun",
    ),
    (
        "docs/gotchas.zh.md",
        "**应该这样写**：只写入输出缓冲区；需要临时工作空间时，复制一份输入（`np.asarray(x).copy()`）。",
        ADVICE,
    ),
)

PENDING: tuple[tuple[str, str], ...] = (
    ("docs/performance.md", "The `buffer_callback` `sum_mean` pattern sums once and divid"),
    (
        "packages/jaxcb-ffi/README.md",
        "The CMake build lives in `build/<python cache tag>/` (ignore",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/bessel_jv.py",
        "**In place.** `on_host` gets NumPy views of XLA's own buffer",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/cubic_root.py",
        "**In place, element by element.** `on_host` gets NumPy views",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/expm.py",
        "**Into the output buffer, one copy.** Both get NumPy views o",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sin_scale.py",
        "**In place.** `on_host` gets NumPy views of XLA's own buffer",
    ),
    (
        "packages/jaxcb-pyffi/src/jaxcb_pyffi/sum_mean.py",
        "**In place, two outputs.** `on_host` gets NumPy views of XLA",
    ),
)
