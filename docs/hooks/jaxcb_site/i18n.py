"""The words the site engine writes around the data, in each language of the site.

A page ``*.zh.md`` is Chinese (mkdocs-static-i18n's suffix layout), every other page English.
Generated captions, table headings and the names of measured facts come from here, so a
Chinese page shows no English label that its translator could not reach. ``FACTS`` names the
facts of the gotchas (``docs/data/behaviour``, groups ``gotcha`` and ``fix``): a gotcha whose
fact has no Chinese name fails the build of the Chinese page (``label``).
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
    },
}

# The gotchas' facts (the keys of their observations' outcomes), in Chinese.
FACTS: dict[str, str] = {
    "all_true": "全部为真",
    "batch": "批量",
    "batched_result": "批处理结果",
    "caller_input_after": "调用之后调用方的输入",
    "caller_sees": "调用方看到",
    "calls_written": "写下的调用",
    "devices": "设备",
    "eager": "即时执行",
    "eager_keeps_keyerror": "即时执行时保留 KeyError",
    "error": "错误",
    "expand_dims_host_calls": "expand_dims：主机调用次数",
    "expand_dims_right_values": "expand_dims：数值正确",
    "expand_dims_shape_seen": "expand_dims：主机看到的形状",
    "export": "导出",
    "host_calls": "主机调用次数",
    "host_calls_grad": "grad 下的主机调用次数",
    "host_calls_jit": "jit 下的主机调用次数",
    "host_raised": "主机抛出",
    "host_received": "主机收到",
    "host_returned": "主机返回",
    "host_value": "主机上的值",
    "import": "导入",
    "jit": "jit",
    "jit_keeps_keyerror": "jit 下保留 KeyError",
    "logged_grad": "grad 下记录的条数",
    "logged_jit": "jit 下记录的条数",
    "logged_value_and_grad": "value_and_grad 下记录的条数",
    "message": "消息",
    "no_calls": "no 分支的调用次数",
    "ordered": "有序",
    "printed_1": "第 1 次打印",
    "printed_2": "第 2 次打印",
    "raises": "抛出",
    "records": "记录",
    "result": "结果",
    "result_value": "结果的值",
    "right_values": "数值正确",
    "same_call_again": "再次做同样的调用",
    "same_result_as_f": "与 f 的结果相同",
    "says": "显示",
    "says_writeable": "显示可写",
    "sequential_host_calls": "sequential：主机调用次数",
    "sequential_right_values": "sequential：数值正确",
    "sequential_shape_seen": "sequential：主机看到的形状",
    "shape_seen": "主机看到的形状",
    "shapes_seen": "主机看到的形状",
    "shards": "分片",
    "steps": "步数",
    "steps_the_calling_program_sees": "调用程序看到的步数",
    "sums": "各次求和",
    "type": "类型",
    "unordered": "无序",
    "values": "值",
    "view_writeable": "视图可写",
    "vmap": "vmap",
    "warnings": "警告",
    "writeable": "可写",
    "x64": "x64",
    "yes_calls": "yes 分支的调用次数",
}


class LabelError(ValueError):
    pass


def language(src: str) -> str:
    """``zh`` for a page ``*.zh.md``, else ``en``."""
    return "zh" if src.endswith(".zh.md") else "en"


def word(src: str, key: str, **fields: str) -> str:
    """The label ``key`` in the language of the page ``src``, its ``{fields}`` filled in."""
    return WORDS[language(src)][key].format(**fields)


def fact(src: str, key: str, strict: bool = False) -> str:
    """A measured fact's name (``host_calls``) as a row heading in the page's language:
    ``host calls`` in English, ``FACTS[key]`` in Chinese. ``strict``: a Chinese page fails
    where the fact has no Chinese name; otherwise it keeps the English words."""
    if language(src) == "zh":
        if key in FACTS:
            return FACTS[key]
        if strict:
            raise LabelError(
                f"{src}: the fact {key!r} has no Chinese name: add it to FACTS in "
                "docs/hooks/jaxcb_site/i18n.py"
            )
    return key.replace("_", " ")
