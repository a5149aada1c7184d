"""The learning path's lessons on their pages: each step's code and what it printed.

A lesson is ``docs/learn/lessons/NN_slug.py`` (jupytext percent format, one tag per code
cell); ``tests/learn`` runs it on each JAX it is installed with and records every cell's output
in ``docs/data/lessons/<jax>.json`` (``jaxcb_core.schema.LessonsFile``) with the hash of the
code that ran. The site runs nothing: it shows a cell's source, read from the script, and the
outputs recorded for it, identical outputs once. An output recorded from other code, a cell no
file has an output for, or a sentence checked by ``shows`` that an output does not bear out
fails the build.

=========================  ==========================================================
directive                  expands to
=========================  ==========================================================
lesson-head LESSON         Colab, notebook and script links, the JAX versions it ran on,
                           the files its notebook writes, and a note to start a fresh
                           Python where its first step sets up JAX (``FRESH``)
cell LESSON TAG            the cell's code, then its output per JAX version
shows LESSON TAG "TEXT"    nothing; fails the build unless every recorded run of the cell
                           that completed printed TEXT
lesson-file LESSON NAME    docs/learn/lessons/LESSON/NAME, whole (the FFI lesson's C++)
=========================  ==========================================================
"""

from __future__ import annotations

import functools
import posixpath
import re
from pathlib import Path

from jaxcb_core import schema

from .data import ROOT, _version_key
from .examples import _fence

LESSONS_DIR = ROOT / "docs" / "learn" / "lessons"
NOTEBOOKS_DIR = ROOT / "docs" / "learn" / "notebooks"
DATA_DIR = ROOT / "docs" / "data" / "lessons"
UPDATE = "tox -e py312 -- tests/learn --update-lessons"  # and py311, legacy
REPOSITORY: dict[str, str | None] = {"url": None, "branch": "main"}
LANGUAGES = {
    "en": {
        "output": "Output",
        "stops": "stops here",
        "not_reached": "does not get here: the lesson stops earlier, at",
        "not_reached_short": "JAX {version} stops earlier, at {tag}",
        "colab": "Open in Colab",
        "notebook": "Download the notebook",
        "script": "the script",
        "ran": "Every output on this page was printed by this code on JAX {versions} (CPU{timing}).",
        "stopped": "On JAX {version} it stops at the step `{tag}`: `{line}`.",
        "timing": "; the times, on {cpu} with {cores} cores",
        "carries": "The notebook writes {files} into its own folder itself (its cell `files`, "
        "before the steps that use them), so it runs alone, in Colab too; the script needs them "
        "beside it.",
        "fresh_title": "Start a fresh Python",
        "fresh": "The first step sets {settings}, which JAX accepts only before it has run "
        "anything. Run this lesson in a new Python session (in a notebook: restart the kernel), "
        "not after another lesson or other JAX code in the same session: there the first step "
        "raises `RuntimeError: {first} config should be updated before backends are "
        "initialized`.",
        "and": " and ",
    },
    "zh": {
        "output": "输出",
        "stops": "在此停止",
        "not_reached": "未运行到此处：课程在更早的步骤停止，于",
        "not_reached_short": "JAX {version} 在更早的步骤 {tag} 停止",
        "colab": "在 Colab 中打开",
        "notebook": "下载笔记本",
        "script": "脚本",
        "ran": "本页的每段输出都由这段代码在 JAX {versions}（CPU{timing}）上运行打印。",
        "stopped": "在 JAX {version} 上，它在步骤 `{tag}` 处停止：`{line}`。",
        "timing": "；计时在 {cores} 核的 {cpu} 上测得",
        "carries": "笔记本会自己（用它的 `files` 单元，在用到这些文件的步骤之前）把 {files} 写入它所在的文件夹，"
        "所以它可以单独运行，在 Colab 中也可以；脚本则需要这些文件放在它旁边。",
        "fresh_title": "请在新的 Python 会话中运行",
        "fresh": "第一步设置了 {settings}，而 JAX 只在还没有运行任何计算之前接受这个设置。"
        "请在一个新的 Python 会话中运行本课（在笔记本中：重启内核），不要接在另一节课或其他 JAX "
        "代码之后、在同一个会话里运行：那样第一步会抛出 `RuntimeError: {first} config should be "
        "updated before backends are initialized`。",
        "and": " 和 ",
    },
}
TIME = re.compile(r"\d\s?(?:ns|µs|us|ms|s)\b")


class LessonError(ValueError):
    pass


def language(src: str) -> str:
    """``zh`` for a page ``*.zh.md``, else ``en``."""
    return "zh" if src.endswith(".zh.md") else "en"


def script(lesson: str) -> Path:
    path = LESSONS_DIR / f"{lesson}.py"
    if not path.is_file():
        raise LessonError(f"no lesson docs/learn/lessons/{lesson}.py")
    return path


# Settings JAX takes only before its backends start: a lesson that makes one must start in a
# fresh Python, and its page and notebook say so.
FRESH = re.compile(r"""jax\.config\.update\(\s*["'](jax_num_cpu_devices|jax_platforms)["']""")


def fresh_settings(lesson: str) -> list[str]:
    """The settings the lesson makes that JAX accepts only before it has run anything."""
    return sorted(set(FRESH.findall(script(lesson).read_text(encoding="utf-8"))))


def lesson_files(lesson: str) -> list[str]:
    """The files the lesson needs beside it (``docs/learn/lessons/LESSON/``), sorted."""
    folder = LESSONS_DIR / lesson
    if not folder.is_dir():
        return []
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _and(items: list[str], word: str) -> str:
    """``a, b and c`` (``a、b和c``)."""
    comma = "、" if word.strip() == "和" else ", "
    return items[0] if len(items) == 1 else comma.join(items[:-1]) + word + items[-1]


def sha256(lesson: str) -> str:
    return schema.lesson_sha256(script(lesson))


@functools.lru_cache(maxsize=32)
def _cells(lesson: str, mtime: float) -> dict[str, str]:
    import jupytext

    nb = jupytext.read(script(lesson))
    out: dict[str, str] = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if len(tags) != 1:
                raise LessonError(f"lesson {lesson}: a code cell without exactly one tag: {tags}")
            out[tags[0]] = cell.source
    return out


def cells(lesson: str) -> dict[str, str]:
    """The lesson's code cells by tag, in order."""
    return _cells(lesson, script(lesson).stat().st_mtime)


@functools.lru_cache(maxsize=4)
def _load(stamp: tuple[tuple[str, float], ...]) -> tuple[schema.LessonsFile, ...]:
    docs = [schema.load_lessons(DATA_DIR / name) for name, _ in stamp]
    return tuple(sorted(docs, key=lambda d: _version_key(d.environment.jax), reverse=True))


def files() -> tuple[schema.LessonsFile, ...]:
    """Every lessons file, newest JAX first."""
    return _load(tuple((p.name, p.stat().st_mtime) for p in schema.files(DATA_DIR)))


def runs(lesson: str) -> list[tuple[schema.LessonEnvironment, schema.LessonRun]]:
    """The recorded runs of the lesson's current code, newest JAX first."""
    digest = sha256(lesson)
    found, stale = [], []
    for f in files():
        run = next((r for r in f.lessons if r.id == lesson), None)
        if run is None:
            continue
        if run.source_sha256 != digest:
            stale.append(f.environment.jax)
        else:
            found.append((f.environment, run))
    if stale:
        raise LessonError(
            f"docs/learn/lessons/{lesson}.py changed after its output was recorded for JAX "
            f"{', '.join(stale)}: run `{UPDATE}` in each of those environments"
        )
    if not found:
        raise LessonError(f"no recorded output for lesson {lesson}: run `{UPDATE}`")
    return found


def _code(text: str, lang: str, title: str) -> list[str]:
    fence = _fence(text)
    return [f'{fence}{lang} title="{title}"', *text.rstrip("\n").split("\n"), fence]


def d_cell(src: str, lesson: str, tag: str) -> str:
    """The cell's code, then what it printed on each JAX (identical outputs merged)."""
    words = LANGUAGES[language(src)]
    source = cells(lesson).get(tag)
    if source is None:
        raise LessonError(f"lesson {lesson} has no cell tagged {tag!r} (has {list(cells(lesson))})")
    parts = _code(source, "python", f"{lesson}.py")
    groups: dict[str, list[str]] = {}
    notes: list[str] = []
    earlier: list[tuple[str, str]] = []  # (JAX, the step it stopped at) before this one
    for env, run in runs(lesson):
        done = {c.tag: c.output for c in run.cells}
        stopped = run.stopped
        if stopped is not None and stopped.cell == tag:
            notes.append(f"JAX {env.jax}: {words['stops']} · `{stopped.line}`")
            if done.get(tag):
                groups.setdefault(done[tag], []).append(env.jax)
        elif tag in done:
            groups.setdefault(done[tag], []).append(env.jax)
        elif stopped is not None:
            earlier.append((env.jax, stopped.cell))
    shown = [(out, versions) for out, versions in groups.items() if out]
    if not shown:  # nothing printed here to title: the releases that stopped before, in words
        notes += [f"JAX {jax}: {words['not_reached']} `{cell}`" for jax, cell in earlier]
    before = "; ".join(words["not_reached_short"].format(version=j, tag=c) for j, c in earlier)
    for n, (out, versions) in enumerate(shown):
        title = f"{words['output']} · JAX {', '.join(versions)}"
        if n == len(shown) - 1 and before:  # the last output's title says who stopped before
            title += f" ({before})"
        parts += ["", *_code(out, "text", title)]
    for note in notes:
        parts += ["", f"> {note}"]
    return "\n".join(parts)


def d_shows(src: str, lesson: str, tag: str, text: str) -> str:
    """Nothing on the page: the build fails unless the cell printed ``text`` on every JAX
    where it ran to its end."""
    if tag not in cells(lesson):
        raise LessonError(f"{src}: shows: lesson {lesson} has no cell tagged {tag!r}")
    checked = 0
    for env, run in runs(lesson):
        if run.stopped is not None and run.stopped.cell == tag:
            continue
        out = next((c.output for c in run.cells if c.tag == tag), None)
        if out is None:
            continue
        checked += 1
        if text not in out:
            raise LessonError(
                f"{src}: the page says lesson {lesson}'s step {tag!r} prints {text!r}, but on "
                f"JAX {env.jax} it printed:\n{out}"
            )
    if not checked:
        raise LessonError(f"{src}: shows: no JAX version ran lesson {lesson}'s step {tag!r}")
    return ""


def colab(lesson: str) -> str | None:
    url = REPOSITORY["url"] or ""
    m = re.match(r"https://github\.com/([^/]+/[^/]+?)/?$", url)
    if not m:
        return None
    return (
        f"https://colab.research.google.com/github/{m.group(1)}/blob/"
        f"{REPOSITORY['branch']}/docs/learn/notebooks/{lesson}.ipynb"
    )


def d_lesson_head(src: str, lesson: str) -> str:
    """Links to the notebook (Colab, download) and the script; where the outputs come from."""
    words = LANGUAGES[language(src)]
    here = posixpath.dirname(src) or "."
    notebook = NOTEBOOKS_DIR / f"{lesson}.ipynb"
    if not notebook.is_file():
        raise LessonError(f"no notebook docs/learn/notebooks/{lesson}.ipynb: run `{UPDATE}`")
    nb_rel = posixpath.relpath(f"learn/notebooks/{lesson}.ipynb", here)
    py_rel = posixpath.relpath(f"learn/lessons/{lesson}.py", here)
    links = []
    url = colab(lesson)
    if url:
        links.append(f"[{words['colab']}]({url}){{ .md-button .md-button--primary }}")
    links.append(f"[{words['notebook']}]({nb_rel}){{ .md-button }}")
    links.append(f"[{words['script']}]({py_rel}){{ .md-button }}")
    recorded = runs(lesson)
    ok = [env for env, run in recorded if run.stopped is None]
    timed = any(TIME.search(c.output) for _, run in recorded for c in run.cells)
    timing = ""
    if timed and ok:
        timing = words["timing"].format(cpu=ok[0].processor, cores=ok[0].cores)
    lines = ['<div class="jaxcb-lesson-head" markdown>', "", " ".join(links), ""]
    if ok:
        lines.append(words["ran"].format(versions=", ".join(e.jax for e in ok), timing=timing))
    for env, run in recorded:
        if run.stopped is not None:
            lines.append(
                words["stopped"].format(
                    version=env.jax, tag=run.stopped.cell, line=run.stopped.line
                )
            )
    carried = lesson_files(lesson)
    if carried:
        lines += [
            "",
            words["carries"].format(files=_and([f"`{n}`" for n in carried], words["and"])),
        ]
    lines += ["", "</div>"]
    fresh = fresh_settings(lesson)
    if fresh:
        text = words["fresh"].format(
            settings=_and([f"`{s}`" for s in fresh], words["and"]), first=fresh[0]
        )
        lines += ["", f'!!! warning "{words["fresh_title"]}"', "", f"    {text}"]
    return "\n".join(lines)


LANGS = {
    ".cc": "cpp",
    ".cu": "cuda",
    ".cpp": "cpp",
    ".h": "cpp",
    ".py": "python",
    ".toml": "toml",
    ".txt": "cmake",
}


def d_lesson_file(src: str, lesson: str, name: str) -> str:
    """A file the lesson needs beside it, whole, with its name."""
    path = LESSONS_DIR / lesson / name
    if not path.is_file():
        raise LessonError(f"{src}: no file docs/learn/lessons/{lesson}/{name}")
    rel = path.relative_to(ROOT).as_posix()
    lang = LANGS.get(path.suffix, "text")
    return "\n".join([f'```{lang} title="{name}"', f'--8<-- "{rel}"', "```"])


DIRECTIVES = {
    "lesson-head": d_lesson_head,
    "cell": d_cell,
    "shows": d_shows,
    "lesson-file": d_lesson_file,
}


TITLE = re.compile(r"^# # Lesson (\d+) · (.+)$", re.M)
PAGES = ROOT / "docs" / "learn"


def d_lessons(src: str) -> str:
    """The path as a table: each lesson's page, its notebook, and where it runs as recorded."""
    zh = language(src) == "zh"
    head = (
        "| # | 课程 | 代码行数 | 完整运行于 JAX | 笔记本 |"
        if zh
        else "| # | lesson | lines of code | runs to the end on JAX | notebook |"
    )
    rows = [head, "|---|---|---|---|---|"]
    here = posixpath.dirname(src) or "."
    for path in sorted(LESSONS_DIR.glob("[0-9][0-9]_*.py")):
        lesson = path.stem
        m = TITLE.search(path.read_text(encoding="utf-8"))
        if not m:
            raise LessonError(f"{path.name}: the first cell needs the title '# # Lesson N · Title'")
        page = f"{lesson[:2]}-{lesson[3:].replace('_', '-')}"
        page_src = f"learn/{page}.md"  # the i18n plugin links the page of the reader's language
        if not (ROOT / "docs" / page_src).is_file():
            raise LessonError(f"lesson {lesson} has no page docs/learn/{page}.md")
        translated = PAGES / f"{page}.zh.md"
        shown = translated if zh and translated.is_file() else ROOT / "docs" / page_src
        title = _page_title(shown) or m.group(2)
        code_lines = sum(
            1
            for line in "\n".join(cells(lesson).values()).splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        )
        recorded = runs(lesson)
        full = ", ".join(env.jax for env, run in recorded if run.stopped is None) or "—"
        nb = posixpath.relpath(f"learn/notebooks/{lesson}.ipynb", here)
        link = posixpath.relpath(page_src, here)
        rows.append(
            f"| {int(m.group(1))} | [{title}]({link}) | {code_lines} | {full} | [`{lesson}.ipynb`]({nb}) |"
        )
    return "\n".join(rows)


def _page_title(page: Path) -> str | None:
    m = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M)
    return re.sub(r"^\d+ · ", "", m.group(1)).strip() if m else None


DIRECTIVES["lessons"] = d_lessons
