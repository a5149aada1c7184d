"""The words the site engine writes around the data, in each language of the site.

A page ``*.zh.md`` is Chinese (mkdocs-static-i18n's suffix layout), every other page English.
Generated captions, table headings and the names of measured facts come from here, so a
Chinese page shows no English label that its translator could not reach. ``FACTS`` names the
measured facts (the keys of the observations' outcomes in ``docs/data/behaviour``) that the
behaviour tables of a Chinese page show: gotchas, edge cases, programs and comparisons
(``behaviour.py``). A fact without a Chinese name fails the build of the Chinese page that
shows it (``fact``), and ``tests/docs/test_zh_chrome.py`` checks the committed data without a
build. ``GROUPS`` names the groups of the matrix's transform columns (each transform's
``group`` in ``docs/data/matrix``) the same way (``group``). The matrix tables (``render.py``,
``matrixpage.py``) take the page's language as ``lang`` and their words from ``say``.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "yes": "yes",
        "no": "no",
        "not measured": "not measured",
        "gotcha-title": "The trap: `{file}` and what it printed",
        "fix-title": "Instead: `{file}` and what it printed",
        "program-title": "The program: `{file}` and what it printed",
        "gotcha-head": "{title}",
        "fix-head": "{title}",
        "printed": "What it printed:",
        "jax-platform": "JAX version / platform",
        "mechanism": "mechanism",
        "type kept": "type kept",
        "message kept": "message kept",
        "next call fails": "next call fails",
        "ordered effect fails": "ordered effect fails",
        # the matrix tables (render.py, matrixtables.py, matrixpage.py)
        "env-file": "file",
        "env-platform": "platform",
        "env-device-kind": "device kind",
        "env-devices": "devices",
        "env-cells": "cells",
        "env-took": "run took",
        "on": "on",
        "off": "off",
        "line-platform": "platform {value}",
        "line-device-kind": "device kind {value}",
        "line-devices": "{n} devices",
        "line-x64": "x64 {value}",
        "legend-ok": "runs and matches the NumPy/SciPy reference",
        "legend-wrong": "runs, but the result or the host effects differ from the reference",
        "legend-error": "raises",
        "legend-n/a": "does not apply to this row (the reason is in its details)",
        "legend-elsewhere": (
            "not measured in this row: another row of the same mechanism measures it"
        ),
        "legend-calls": "host calls counted in that cell",
        "caption-cells": "{label}: {n} cells",
        "caption-slice": "{computation} on {label}",
        "caption-kinds": "{label} · {what}: {names}",
        "all computations": "all computations",
        "pure computations": "pure computations",
        "effects and impure inputs": "effects and impure inputs",
        "short-pure computations": "pure",
        "short-effects and impure inputs": "effects",
        "no row applies": "{caption}: no row applies.",
        "loading": "{label}: loading its table…",
        "none applicable": "not applicable to any computation",
        "tip-calls": " [host calls {n}]",
        "quick-corner": "transform",
        "quick-note": (
            "In each cell the first line is the pure computations, the second the effects and "
            "impure inputs; tap a line for what it aggregates."
        ),
        "filter-mechanism": "Mechanism",
        "filter-computation": "Computation",
        "filter-all": "all",
        "filter-variants": "{mechanism}: all {n} variants",
        "filter-variant": "{mechanism}: all {n} variant",
        # a cell's details (tooltips, the cell box, the timeline's before and after)
        "cell-ok": "works",
        "cell-wrong": "wrong result",
        "cell-error": "raises",
        "cell-n/a": "not applicable",
        "cell-elsewhere": "measured in another row",
        "cell-missing": "not measured in this environment",
        "cell-calls": "host calls: {n}",
        "cell-received": "host received: {shapes}",
        "cell-effects": "effects {verdict}: {arrived}/{expected} arrived, {missing} missing, "
        "{extra} extra, {order}",
        "cell-in-order": "in order",
        "cell-out-of-order": "out of order",
        "cell-warning": "warning: {warning}",
        "cell-test": "test: {test}",
        # the timeline page (``timeline.py``)
        "tl-files": "Matrix files ({platform}, {n} devices, one process): JAX {releases}.",
        "tl-heading": "JAX {new}, from {old}",
        "tl-cells": "Matrix: {n} cells differ from JAX {old}",
        "tl-by": " ({mechanisms}).",
        "tl-end": ".",
        "tl-facts": " Behaviour: {n} facts differ from JAX {old}.",
        "tl-no-facts": " Behaviour: no observations measured on JAX {new}.",
        "tl-summary": "What differs, row by row (JAX {old} → {new})",
        "tl-loading": "loading…",
        "tl-filter-transform": "Transform",
        "tl-head-cells": "row|transform|computations|on JAX {old}|on JAX {new}",
        "tl-head-facts": "observation|fact|on JAX {old}|on JAX {new}",
        "tl-transforms": "{n} transforms",
        "tl-caption-cells": "{n} cells differ from JAX {old}",
        "tl-caption-facts": "{n} facts of the behaviour observations differ from JAX {old}",
        "tl-not-observed": "· not observed",
        "tl-no-row": "· no such row in the JAX {release} file",
        "label-devices": "{n} devices",
        "label-device": "{n} device",
        "label-processes": ", {n} processes",
    },
    "zh": {
        "yes": "是",
        "no": "否",
        "not measured": "未测量",
        "gotcha-title": "陷阱：`{file}` 及其输出",
        "fix-title": "改写：`{file}` 及其输出",
        "program-title": "程序：`{file}` 及其输出",
        "gotcha-head": "陷阱程序的输出",
        "fix-head": "改写后程序的输出",
        "printed": "它的输出：",
        "jax-platform": "JAX 版本 / 平台",
        "mechanism": "机制",
        "type kept": "类型保留",
        "message kept": "消息保留",
        "next call fails": "下一次调用失败",
        "ordered effect fails": "有序副作用失败",
        "env-file": "文件",
        "env-platform": "平台",
        "env-device-kind": "设备类型",
        "env-devices": "设备数",
        "env-cells": "单元格数",
        "env-took": "运行用时",
        "on": "开启",
        "off": "关闭",
        "line-platform": "平台 {value}",
        "line-device-kind": "设备类型 {value}",
        "line-devices": "{n} 个设备",
        "line-x64": "x64 {value}",
        "legend-ok": "运行了，结果与 NumPy/SciPy 的参考值一致",
        "legend-wrong": "运行了，但结果或主机上的副作用与参考值不一致",
        "legend-error": "抛出异常",
        "legend-n/a": "不适用于这一行（详细信息里说明了原因）",
        "legend-elsewhere": "不在这一行中测量：同一机制的另一行测量了它",
        "legend-calls": "这个单元格中数到的主机调用次数",
        "caption-cells": "{label}：{n} 个单元格",
        "caption-slice": "{label} 上的 {computation}",
        "caption-kinds": "{label} · {what}：{names}",
        "all computations": "全部计算",
        "pure computations": "纯计算",
        "effects and impure inputs": "副作用和非纯输入",
        "short-pure computations": "纯计算",
        "short-effects and impure inputs": "副作用",
        "no row applies": "{caption}：没有适用的行。",
        "loading": "{label}：正在加载它的表格…",
        "none applicable": "不适用于任何计算",
        "tip-calls": " [主机调用次数 {n}]",
        "quick-corner": "变换",
        "quick-note": (
            "每个单元格里，第一行是纯计算，第二行是副作用和非纯输入；点按一行可以看到它汇总了什么。"
        ),
        "filter-mechanism": "机制",
        "filter-computation": "计算",
        "filter-all": "全部",
        "filter-variants": "{mechanism}：全部 {n} 个变体",
        "filter-variant": "{mechanism}：全部 {n} 个变体",
        "cell-ok": "可以运行",
        "cell-wrong": "结果错误",
        "cell-error": "抛出异常",
        "cell-n/a": "不适用",
        "cell-elsewhere": "在另一行中测量",
        "cell-missing": "这个环境中没有测量",
        "cell-calls": "主机调用次数：{n}",
        "cell-received": "主机收到：{shapes}",
        "cell-effects": "副作用 {verdict}：到达 {arrived}/{expected}，缺失 {missing}，"
        "多出 {extra}，{order}",
        "cell-in-order": "顺序不变",
        "cell-out-of-order": "顺序打乱",
        "cell-warning": "警告：{warning}",
        "cell-test": "测试：{test}",
        "tl-files": "对照表文件（{platform}，{n} 个设备，单进程）：JAX {releases}。",
        "tl-heading": "JAX {new}，相对于 {old}",
        "tl-cells": "对照表：{n} 个单元格与 JAX {old} 不同",
        "tl-by": "（{mechanisms}）。",
        "tl-end": "。",
        "tl-facts": "行为：{n} 项事实与 JAX {old} 不同。",
        "tl-no-facts": "行为：JAX {new} 上没有测量行为观察。",
        "tl-summary": "逐行列出的差异（JAX {old} → {new}）",
        "tl-loading": "正在加载…",
        "tl-filter-transform": "变换",
        "tl-head-cells": "行|变换|计算|JAX {old} 上|JAX {new} 上",
        "tl-head-facts": "观察|事实|JAX {old} 上|JAX {new} 上",
        "tl-transforms": "{n} 个变换",
        "tl-caption-cells": "{n} 个单元格与 JAX {old} 不同",
        "tl-caption-facts": "行为观察中有 {n} 项事实与 JAX {old} 不同",
        "tl-not-observed": "· 未观察到",
        "tl-no-row": "· JAX {release} 的文件中没有这一行",
        "label-devices": "{n} 个设备",
        "label-device": "{n} 个设备",
        "label-processes": "，{n} 个进程",
    },
}

# The facts a Chinese page's behaviour tables show (the keys of the observations' outcomes),
# in Chinese: every one of them, or that page's build fails.
FACTS: dict[str, str] = {
    "a_fori_loop": "在 fori_loop 中",
    "a_numpy_array": "NumPy 数组",
    "all_true": "全部为真",
    "an_array_on_the_default_device": "默认设备上的数组",
    "arrays_read": "读取的数组",
    "barrier_raises": "副作用屏障抛出",
    "batch": "批量",
    "batched_result": "批处理结果",
    "cached_call": "命中缓存的调用",
    "callback_cached": "带回调的程序被缓存",
    "caller_input_after": "调用之后调用方的输入",
    "caller_sees": "调用方看到",
    "calls": "调用次数",
    "calls_finished_when_the_third_returned": "第三次调用返回时已完成的调用数",
    "calls_written": "写下的调用",
    "checkpoint": "checkpoint",
    "debug_callback_asarray_at_the_argument_memory": "debug.callback：np.asarray 从参数的缓冲区开始",
    "debug_callback_asarray_has_a_base": "debug.callback：np.asarray 有 base",
    "debug_callback_asarray_writeable": "debug.callback：np.asarray 可写",
    "debug_callback_two_asarray_share_memory": "debug.callback：两次 np.asarray 共享内存",
    "debug_callback_type": "debug.callback：参数的类型",
    "device_0_constrained_result_right": "指定设备 0：经 with_sharding_constraint 的结果正确",
    "device_0_copy_on_device_0_right": "指定设备 0：设备 0 上的副本正确",
    "device_0_copy_on_device_1_right": "指定设备 0：设备 1 上的副本正确",
    "device_0_host_calls": "指定设备 0：主机调用次数",
    "device_0_host_received": "指定设备 0：主机收到",
    "device_0_its_message": "指定设备 0：结果加 1 的消息",
    "device_0_result_plus_one": "指定设备 0：结果加 1",
    "device_0_result_right": "指定设备 0：结果正确",
    "device_1_constrained_result_right": "指定设备 1：经 with_sharding_constraint 的结果正确",
    "device_1_copy_on_device_0_right": "指定设备 1：设备 0 上的副本正确",
    "device_1_copy_on_device_1_right": "指定设备 1：设备 1 上的副本正确",
    "device_1_host_calls": "指定设备 1：主机调用次数",
    "device_1_host_received": "指定设备 1：主机收到",
    "device_1_its_message": "指定设备 1：结果加 1 的消息",
    "device_1_result_plus_one": "指定设备 1：结果加 1",
    "device_1_result_right": "指定设备 1：结果正确",
    "device_not_in_the_program": "指定程序之外的设备",
    "devices": "设备",
    "eager": "即时执行",
    "eager_keeps_keyerror": "即时执行时保留 KeyError",
    "eager_new_lambda_calls": "即时执行、每次新的 lambda：调用次数",
    "eager_new_lambda_compiles": "即时执行、每次新的 lambda：编译次数",
    "eager_result": "即时执行的结果",
    "eager_same_function_calls": "即时执行、同一个主机函数：调用次数",
    "eager_same_function_compiles": "即时执行、同一个主机函数：编译次数",
    "eager_with_the_flag": "即时执行，有标志",
    "error": "错误",
    "error_line": "错误信息行",
    "error_value": "错误值",
    "eval_shape": "eval_shape",
    "every_error_has_the_message_of_the_check": "每个错误都带有检查的消息",
    "exit_code": "退出码",
    "expand_dims_host_calls": "expand_dims：主机调用次数",
    "expand_dims_right_values": "expand_dims：数值正确",
    "expand_dims_shape_seen": "expand_dims：主机看到的形状",
    "expected": "应打印的行数",
    "export": "导出",
    "f_string": "f-string",
    "f_string_mentions_f_strings": "f-string：提到 f-string",
    "f_string_says": "f-string：显示",
    "filter_jit": "filter_jit",
    "first_call": "第一次调用",
    "first_values": "各数组的第一个值",
    "flag": "标志",
    "fori_loop_reporters": "fori_loop：报告者数",
    "fori_loop_reports_each": "fori_loop：每个报告者的报告次数",
    "fori_loop_steps_counted_each": "fori_loop：每个报告者数到的步数",
    "fortran_result_equal": "Fortran 顺序：结果相同",
    "good_input_passes_everywhere": "正常输入在各处都通过",
    "good_input_with_the_flag": "正常输入，有标志",
    "grad": "grad",
    "grad_same_as_2_cos_x": "grad 等于 2 cos x",
    "grad_with_the_flag": "grad，有标志",
    "host_calls": "主机调用次数",
    "host_calls_grad": "grad 下的主机调用次数",
    "host_calls_jit": "jit 下的主机调用次数",
    "host_calls_used_then_unused": "主机调用次数（先使用结果，再不使用）",
    "host_raised": "主机抛出",
    "host_received": "主机收到",
    "host_returned": "主机返回",
    "host_shape": "主机看到的形状",
    "host_value": "主机上的值",
    "import": "导入",
    "in_and_out_axes_1_error": "in_axes=1、out_axes=1：错误",
    "in_and_out_axes_1_error_line": "in_axes=1、out_axes=1：错误信息行",
    "in_and_out_axes_1_host_calls": "in_axes=1、out_axes=1：主机调用次数",
    "in_and_out_axes_1_host_shape": "in_axes=1、out_axes=1：主机看到的形状",
    "in_and_out_axes_1_result_right": "in_axes=1、out_axes=1：结果正确",
    "in_and_out_axes_1_result_shape": "in_axes=1、out_axes=1：结果的形状",
    "in_axes_1_error": "in_axes=1：错误",
    "in_axes_1_error_line": "in_axes=1：错误信息行",
    "in_axes_1_host_calls": "in_axes=1：主机调用次数",
    "in_axes_1_host_shape": "in_axes=1：主机看到的形状",
    "in_axes_1_result_right": "in_axes=1：结果正确",
    "in_axes_1_result_shape": "in_axes=1：结果的形状",
    "int2": "int2",
    "int2_host_received": "int2：主机收到",
    "int2_round_trip_equal": "int2：往返后值不变",
    "io_callback_asarray_at_the_argument_memory": "io_callback：np.asarray 从参数的缓冲区开始",
    "io_callback_asarray_has_a_base": "io_callback：np.asarray 有 base",
    "io_callback_asarray_writeable": "io_callback：np.asarray 可写",
    "io_callback_first_waits_orders": "io_callback：第一个调用要等待时出现的顺序",
    "io_callback_independent_orders": "io_callback：互不依赖时出现的顺序",
    "io_callback_two_asarray_share_memory": "io_callback：两次 np.asarray 共享内存",
    "io_callback_type": "io_callback：参数的类型",
    "jit": "jit",
    "jit_calls": "jit：调用次数",
    "jit_compiles": "jit：编译次数",
    "jit_keeps_keyerror": "jit 下保留 KeyError",
    "jit_with_the_flag": "jit，有标志",
    "jit_without_the_flag": "jit，没有标志",
    "jvp": "jvp",
    "last_line": "错误信息的最后一行",
    "log_has_traceback": "日志带有回溯",
    "log_names_keyerror": "日志指明 KeyError",
    "log_records_at_error": "ERROR 级别的日志记录数",
    "logged_grad": "grad 下记录的条数",
    "logged_jit": "jit 下记录的条数",
    "logged_value_and_grad": "value_and_grad 下记录的条数",
    "logger": "日志记录器",
    "message": "消息",
    "message_kept": "消息被保留",
    "message_kept_everywhere": "消息在各处都被保留",
    "missing_name": "缺少命名字段",
    "missing_name_line": "缺少命名字段：错误信息行",
    "missing_positional": "缺少位置字段",
    "missing_positional_line": "缺少位置字段：错误信息行",
    "native_cached": "不带回调的程序被缓存",
    "next_call_works": "下一次调用正常",
    "no_calls": "no 分支的调用次数",
    "no_error_for_good_input": "正常输入没有错误",
    "np_array": "np.array",
    "np_array_message": "np.array：消息",
    "np_asarray_copy": "np.asarray(x).copy()",
    "one_call": "单次调用的写法",
    "one_call_host_received": "单次调用的写法：主机收到",
    "operations_marked_for_the_host": "标记为在主机上运行的运算数",
    "order_on_the_host": "主机上的顺序",
    "ordered": "有序",
    "ordered_effect_after": "失败之后的有序副作用正常",
    "ordered_message": "有序：消息",
    "original_type_in_chain": "异常链中有原来的类型",
    "package": "包",
    "pmap": "pmap",
    "printed": "打印出的行数",
    "printed_1": "第 1 次打印",
    "printed_2": "第 2 次打印",
    "printed_by_one_call": "单次调用的写法：打印的内容",
    "printed_by_two_calls": "两次调用的写法：打印的内容",
    "pure_callback_asarray_at_the_argument_memory": "pure_callback：np.asarray 从参数的缓冲区开始",
    "pure_callback_asarray_has_a_base": "pure_callback：np.asarray 有 base",
    "pure_callback_asarray_writeable": "pure_callback：np.asarray 可写",
    "pure_callback_first_waits_orders": "pure_callback：第一个调用要等待时出现的顺序",
    "pure_callback_independent_orders": "pure_callback：互不依赖时出现的顺序",
    "pure_callback_two_asarray_share_memory": "pure_callback：两次 np.asarray 共享内存",
    "pure_callback_type": "pure_callback：参数的类型",
    "raises": "抛出",
    "ran_by_block_until_ready": "block_until_ready 返回时已运行",
    "ran_by_effects_barrier": "effects_barrier 之后全部已运行",
    "ran_in_the_calling_process": "在发起调用的进程中运行",
    "ready_after_reading": "读取后已就绪",
    "records": "记录",
    "result": "结果",
    "result_is_nan": "结果为 NaN",
    "result_ok": "结果正确",
    "result_right": "结果正确",
    "result_value": "结果的值",
    "results": "各次结果",
    "results_are_jax_arrays": "结果是 jax.Array",
    "right_values": "数值正确",
    "round_trip_equal": "往返后值不变",
    "same_as_numpy": "与 NumPy 相同",
    "same_call_again": "再次做同样的调用",
    "same_first_line": "错误信息行相同",
    "same_result_as_f": "与 f 的结果相同",
    "same_type": "类型相同",
    "same_values_as_a_plain_read": "与直接读取的值相同",
    "says": "显示",
    "says_writeable": "显示可写",
    "scan_of_three": "三步 scan 的和",
    "scan_reporters": "scan：报告者数",
    "scan_reports_each": "scan：每个报告者的报告次数",
    "scan_steps_counted_each": "scan：每个报告者数到的步数",
    "sequential_host_calls": "sequential：主机调用次数",
    "sequential_right_values": "sequential：数值正确",
    "sequential_shape_seen": "sequential：主机看到的形状",
    "shape_seen": "主机看到的形状",
    "shapes_seen": "主机看到的形状",
    "shard_map": "shard_map",
    "shards": "分片",
    "steps": "步数",
    "steps_the_calling_program_sees": "调用程序看到的步数",
    "strided_result_equal": "带步长的视图：结果相同",
    "sums": "各次求和",
    "the_calling_list_changed": "调用方的列表有变化",
    "the_copy_call_returns": "复制调用的返回值",
    "the_error_under_jit_begins": "jit 下错误的开头",
    "the_jit_error_came_from_a_host_callback": "jit 下的错误来自主机回调",
    "the_message_under_vmap": "vmap 下的消息",
    "the_two_calls_overlapped": "两次调用同时运行",
    "throw_raises": "err.throw() 抛出",
    "traces": "追踪次数",
    "two_calls": "两次调用的写法",
    "two_calls_host_received": "两次调用的写法：主机收到",
    "two_calls_message": "两次调用的写法：消息",
    "type": "类型",
    "uint4_error": "uint4：错误",
    "uint4_error_line": "uint4：错误信息行",
    "uint4_host_received": "uint4：主机收到",
    "uint4_round_trip_equal": "uint4：往返后值不变",
    "under_jit": "jit 下",
    "unordered": "无序",
    "unordered_message": "无序：消息",
    "unused_keyword": "未使用的关键字参数",
    "unused_keyword_mentions_f_strings": "未使用的关键字参数：提到 f-string",
    "unused_keyword_says": "未使用的关键字参数：显示",
    "unused_positional": "未使用的位置参数",
    "unused_positional_mentions_f_strings": "未使用的位置参数：提到 f-string",
    "unused_positional_says": "未使用的位置参数：显示",
    "values": "值",
    "view_writeable": "视图可写",
    "vmap": "vmap",
    "vmap_of_2_with_ids_reporters": "vmap（2 个成员，有成员编号）：报告者数",
    "vmap_of_2_with_ids_reports_each": "vmap（2 个成员，有成员编号）：每个报告者的报告次数",
    "vmap_of_2_with_ids_steps_counted_each": "vmap（2 个成员，有成员编号）：每个报告者数到的步数",
    "vmap_of_2_without_ids_reporters": "vmap（2 个成员，无成员编号）：报告者数",
    "vmap_of_2_without_ids_reports_each": "vmap（2 个成员，无成员编号）：每个报告者的报告次数",
    "vmap_of_2_without_ids_steps_counted_each": "vmap（2 个成员，无成员编号）：每个报告者数到的步数",
    "vmap_shape": "vmap 下的形状",
    "vmap_with_the_flag": "vmap，有标志",
    "warnings": "警告",
    "writeable": "可写",
    "x64": "x64",
    "yes_calls": "yes 分支的调用次数",
}


# The titles of the observations a Chinese page shows (``group:id``), in Chinese: the heading
# of an observation's table, a column of a comparison. Every one of them, or that page's build
# fails (``title``).
TITLES: dict[str, str] = {
    "compare:error_if/checkify": "checkify.check(all(x >= 0), msg)",
    "compare:error_if/equinox": "equinox.error_if(x, x < 0, msg)",
    "compare:progress/jax-tqdm": "jax_tqdm.scan_tqdm / loop_tqdm",
    "compare:progress/recipe": "本页配方的 progress(...)",
    "dispatch:barrier/debug.callback": "debug.callback：block_until_ready 与 jax.effects_barrier 对比",
    "dispatch:barrier/io_callback": "io_callback：block_until_ready 与 jax.effects_barrier 对比",
    "dispatch:prints-at-exit/with-barrier": (
        "jit 循环中的 jax.debug.print，进程退出前调用 jax.effects_barrier()"
    ),
    "dispatch:prints-at-exit/without-barrier": (
        "jit 循环中的 jax.debug.print，进程退出前不调用 jax.effects_barrier()"
    ),
    "dispatch:jnp-inside/buffer_callback/async-off": (
        "在 buffer_callback 的主机函数中使用 jax.numpy，CPU 异步分派关闭"
    ),
    "dispatch:jnp-inside/buffer_callback/async-on": (
        "在 buffer_callback 的主机函数中使用 jax.numpy，CPU 异步分派开启"
    ),
    "dispatch:jnp-inside/debug.callback/async-off": (
        "在 debug.callback 的主机函数中使用 jax.numpy，CPU 异步分派关闭"
    ),
    "dispatch:jnp-inside/debug.callback/async-on": (
        "在 debug.callback 的主机函数中使用 jax.numpy，CPU 异步分派开启"
    ),
    "dispatch:jnp-inside/ffi_python/async-off": (
        "在 ffi_python 的主机函数中使用 jax.numpy，CPU 异步分派关闭"
    ),
    "dispatch:jnp-inside/ffi_python/async-on": (
        "在 ffi_python 的主机函数中使用 jax.numpy，CPU 异步分派开启"
    ),
    "dispatch:jnp-inside/io_callback/async-off": (
        "在 io_callback 的主机函数中使用 jax.numpy，CPU 异步分派关闭"
    ),
    "dispatch:jnp-inside/io_callback/async-on": (
        "在 io_callback 的主机函数中使用 jax.numpy，CPU 异步分派开启"
    ),
    "dispatch:jnp-inside/pure_callback/async-off": (
        "在 pure_callback 的主机函数中使用 jax.numpy，CPU 异步分派关闭"
    ),
    "dispatch:jnp-inside/pure_callback/async-on": (
        "在 pure_callback 的主机函数中使用 jax.numpy，CPU 异步分派开启"
    ),
    "exception:pure_callback/cond": "pure_callback（call）的主机函数抛出异常，cond 中",
    "exception:pure_callback/eager": "pure_callback（call）的主机函数抛出异常，eager",
    "exception:pure_callback/jit": "pure_callback（call）的主机函数抛出异常，jit 中",
    "exception:pure_callback/scan": "pure_callback（call）的主机函数抛出异常，scan 中",
    "exception:pure_callback/shard_map": "pure_callback（call）的主机函数抛出异常，shard_map 中",
    "exception:pure_callback/vmap": "pure_callback（call）的主机函数抛出异常，vmap 下",
    "exception:instead/checkify": "不抛出异常：用 checkify 检查主机返回的标志",
    "exception:instead/flag": "不抛出异常：主机把标志与值一起返回",
    "edge:argument-view": "对主机函数的参数调用 np.asarray：视图还是副本",
    "edge:buffer-copy": "对 buffer_callback 的输入缓冲区调用 np.array",
    "edge:buffer-side-effect": "没有输入的 buffer_callback(has_side_effect=True)",
    "edge:cache-hit-exception": "失败回调的错误：第一次调用与命中缓存的调用",
    "edge:call-order": "两个互不依赖的回调的运行顺序",
    "edge:callback-two-calls": "选项放在单独一次调用中的 jax.debug.callback",
    "edge:compile-cache": "持久编译缓存与 pure_callback",
    "edge:compile-once": "调用三次的 jit pure_callback",
    "edge:debug-not-callable": "传给 jax.debug.callback 的不是可调用对象",
    "edge:eager-compiles": "pure_callback 三次调用的编译次数：eager 与 jit",
    "edge:failing-log": "失败的 pure_callback 写入日志的内容",
    "edge:failing-log-debug": "失败的 jax.debug.callback 写入日志的内容",
    "edge:failing-log-io": "失败的 io_callback 写入日志的内容",
    "edge:fortran-order": "主机函数返回 Fortran 顺序或带步长的数组",
    "edge:int4": "操作数与结果为 int4 的 pure_callback",
    "edge:io-checkpoint": "jax.checkpoint 中、不在求导路径上的 io_callback",
    "edge:io-while-batched-pred": "vmap 下谓词被批处理的 while 循环中的 io_callback",
    "edge:legacy-vectorized": 'vmap 下的 vmap_method="legacy_vectorized"',
    "edge:legacy-vectorized-axes": (
        'vmap 下 in_axes=1、out_axes=1 时的 vmap_method="legacy_vectorized"'
    ),
    "edge:no-vmap-method": "不带 vmap_method 的 pure_callback，在每种变换下",
    "edge:pmap-devices": "在四个设备上 pmap 不带 vmap_method 的 pure_callback",
    "edge:print-format": "jax.debug.print 的格式字段没有给出对应的值",
    "edge:print-two-calls": "选项放在单独一次调用中的 jax.debug.print",
    "edge:print-unused": "jax.debug.print 收到格式中没有用到的值",
    "edge:sharding-device": "pure_callback(sharding=) 指定第一个设备以外的设备",
    "edge:sub-byte": "操作数与结果为 uint4 或 int2 的 pure_callback",
    "edge:transpose": "pure_callback 的 linear_transpose",
    "edge:transpose-io": "io_callback 的 linear_transpose",
    "edge:vmap-while-pred": "对谓词未被批处理的 while 循环做 vmap",
    "edge:wrong-shape-batched": "vmap 下主机函数返回错误的形状",
    "road:checkify-runtime-errors": "jit 下的 checkify.check，以及在运行时抛出异常的标志",
    "road:colocated-python": "colocated_python：在设备旁运行的 Python，调用三次",
    "road:colocated-python-threads": "两个线程同时调用 colocated_python",
    "road:colocated-python-transforms": "jit、grad、vmap 等变换下的 colocated_python",
    "road:compute-on": "compute_on(compute_type='device_host')：jit 函数的一部分在主机上运行",
    "road:compute-on-context": "作为上下文管理器的 compute_on（JAX 较早版本的写法）",
    "road:copy-to-host-async": "copy_to_host_async：先发起拷贝，稍后读取值",
}


# The groups of the matrix's transform columns (each transform's ``group`` in the matrix files
# of docs/data/matrix), in Chinese: every one a Chinese page's tables show, or that page's
# build fails (``group``).
GROUPS: dict[str, str] = {
    "compile": "编译",
    "batch": "批处理",
    "autodiff": "自动微分",
    "control flow": "控制流",
    "custom rules": "自定义规则",
    "parallel": "并行",
    "loops under grad": "grad 下的循环",
    "export": "导出",
    "one program for the job": "整个作业一个程序",
    "one program per process": "每个进程一个程序",
}


class LabelError(ValueError):
    pass


def language(src: str) -> str:
    """``zh`` for a page ``*.zh.md``, else ``en``."""
    return "zh" if src.endswith(".zh.md") else "en"


def word(src: str, key: str, **fields: str) -> str:
    """The label ``key`` in the language of the page ``src``, its ``{fields}`` filled in."""
    return WORDS[language(src)][key].format(**fields)


def say(lang: str, key: str, **fields: object) -> str:
    """The label ``key`` in the language ``lang`` (``en``, ``zh``), its ``{fields}`` filled in."""
    return WORDS[lang][key].format(**fields)


def group(lang: str, name: str) -> str:
    """A transform group's name (``control flow``) as a column heading in the language
    ``lang``: as the data gives it in English, ``GROUPS[name]`` in Chinese, where a group
    without a Chinese name fails the build."""
    if lang != "zh":
        return name
    if name not in GROUPS:
        raise LabelError(
            f"the transform group {name!r} has no Chinese name: add it to GROUPS in "
            "docs/hooks/jaxcb_site/i18n.py"
        )
    return GROUPS[name]


def fact(src: str, key: str, strict: bool = True) -> str:
    """A measured fact's name (``host_calls``) as a row heading in the page's language:
    ``host calls`` in English, ``FACTS[key]`` in Chinese. ``strict`` (the default, and what
    every table of ``behaviour.py`` uses): a Chinese page fails where the fact has no Chinese
    name; ``strict=False`` would keep the English words instead."""
    if language(src) == "zh":
        if key in FACTS:
            return FACTS[key]
        if strict:
            raise LabelError(
                f"{src}: the fact {key!r} has no Chinese name: add it to FACTS in "
                "docs/hooks/jaxcb_site/i18n.py"
            )
    return key.replace("_", " ")


def title(src: str, group: str, oid: str, english: str) -> str:
    """An observation's title in the page's language: ``english`` (the title the data
    records) on an English page, ``TITLES["group:oid"]`` on a Chinese one, where a title
    without a Chinese name fails the build."""
    if language(src) != "zh":
        return english
    key = f"{group}:{oid}"
    if key not in TITLES:
        raise LabelError(
            f"{src}: the observation {key!r} has no Chinese title: add it to TITLES in "
            "docs/hooks/jaxcb_site/i18n.py"
        )
    return TITLES[key]
