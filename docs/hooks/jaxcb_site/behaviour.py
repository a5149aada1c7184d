"""Directives for the behaviour data (``docs/data/behaviour/*.json``): exceptions,
dispatch and the gotchas, one column per committed environment.

=========================  ===========================================================
directive                  expands to
=========================  ===========================================================
behaviour-exceptions       mechanism × context: the type the caller sees, and whether
                           the original type, the message, the next call and an
                           ordered effect survive, per environment
behaviour-table GROUP ID…  the outcome of observations (a prefix ``ID*`` matches many),
                           facts as rows, one column per environment
gotcha ID                  one gotcha: the trap's script (docs/gotchas/ID.py) and what
                           it printed on each JAX
gotcha-fix ID              the same for what to write instead (docs/gotchas/ID.fix.py)
recipe ID                  a recipe: its script (docs/recipes/ID.py), then what it printed,
                           one tab per JAX version
program PATH GROUP ID      any other script the behaviour session runs (an edge case,
                           docs/edges/ID.py): the file, and what it printed on each JAX
compare ID…                observations of group compare (another project's answer beside
                           JAX's own), one column each, from the newest JAX that has them
=========================  ===========================================================
"""

from __future__ import annotations

import functools
from typing import Any

from jaxcb_core import schema

from . import data, i18n
from .i18n import fact, word
from .render import esc, tabs

BEHAVIOUR_DIR = data.ROOT / "docs" / "data" / "behaviour"


class BehaviourError(ValueError):
    pass


@functools.cache
def _files(stamp: tuple[tuple[str, float], ...]) -> tuple[tuple[str, schema.BehaviourFile], ...]:
    out = [(name, schema.load_behaviour(BEHAVIOUR_DIR / name)) for name, _ in stamp]
    key = lambda p: tuple(int(x) for x in p[1].environment.jax.split(".") if x.isdigit())  # noqa: E731
    return tuple(sorted(out, key=key, reverse=True))


def files() -> tuple[tuple[str, schema.BehaviourFile], ...]:
    stamp = tuple((p.name, p.stat().st_mtime) for p in schema.files(BEHAVIOUR_DIR))
    return _files(stamp)


def _label(f: schema.BehaviourFile) -> str:
    e = f.environment
    return f"JAX {e.jax}"


def _fmt(value: Any, src: str = "") -> str:
    if value is True:
        return word(src, "yes")
    if value is False:
        return word(src, "no")
    if value is None:
        return "—"
    return f"`{value}`" if isinstance(value, str) and " " not in value else esc(value)


def _find(f: schema.BehaviourFile, group: str, oid: str) -> schema.Observation | None:
    return next((o for o in f.observations if o.group == group and o.id == oid), None)


def _matching(group: str, pattern: str) -> list[str]:
    ids: list[str] = []
    for _, f in files():
        for o in f.observations:
            hit = o.id.startswith(pattern[:-1]) if pattern.endswith("*") else o.id == pattern
            if o.group == group and hit and o.id not in ids:
                ids.append(o.id)
    if not ids:
        raise BehaviourError(f"no committed observation {group}:{pattern}")
    return ids


def d_table(src: str, group: str, *patterns: str) -> str:
    """One table per observation: each fact a row, each environment a column.

    On a Chinese page the facts and the observation's title are in Chinese (``i18n.FACTS``,
    ``i18n.TITLES``; a fact or title without a Chinese one fails the build) and a gotcha's
    table is headed by what it shows."""
    fs = files()
    if not fs:
        return "*No behaviour data committed yet: run `pytest tests/behaviour --update-behaviour`.*"
    blocks = []
    for pattern in patterns:
        for oid in _matching(group, pattern):
            obs = [(_label(f), _find(f, group, oid)) for _, f in fs]
            title = next(o.title for _, o in obs if o is not None)
            facts: list[str] = []
            for _, o in obs:
                facts += [k for k in (o.outcome if o else {}) if k not in facts]
            if group in ("gotcha", "fix"):  # headed by what it shows, the trap or the fix
                title = word(src, f"{group}-head", title=title)
            else:
                title = i18n.title(src, group, oid, title)
            head = "| " + esc(title) + " | " + " | ".join(label for label, _ in obs) + " |"
            rows = [head, "|:--|" + "--:|" * len(obs)]
            for k in facts:
                cells = [
                    _fmt(o.outcome.get(k), src) if o else word(src, "not measured") for _, o in obs
                ]
                rows.append(f"| {fact(src, k)} | " + " | ".join(cells) + " |")
            blocks.append("\n".join(rows))
    return "\n\n".join(blocks)


CONTEXTS = ("eager", "jit", "vmap", "scan", "cond", "shard_map")


def d_exceptions(src: str) -> str:
    """Per environment: mechanism rows × context columns, what the caller catches."""
    fs = files()
    if not fs:
        return "*No behaviour data committed yet.*"
    blocks = []
    for _, f in fs:
        rows = {}
        for o in f.observations:
            if o.group != "exception" or "/" not in o.id or o.id.startswith("instead/"):
                continue
            mech, ctx = o.id.rsplit("/", 1)
            out = o.outcome
            marks = [
                word(src, "type kept") if out.get("original_type_in_chain") else "",
                word(src, "message kept") if out.get("message_kept") else "",
                word(src, "next call fails") if out.get("next_call_works") is not True else "",
                word(src, "ordered effect fails")
                if out.get("ordered_effect_after") not in (True, None)
                else "",
            ]
            text = f"`{out.get('caller_sees')}`" + "".join(
                f"<br><small>{m}</small>" for m in marks if m
            )
            rows.setdefault(mech, {})[ctx] = text
        head = f"| {word(src, 'mechanism')} | " + " | ".join(CONTEXTS) + " |"
        lines = [head, "|:--|" + "--|" * len(CONTEXTS)]
        for mech, cells in rows.items():
            lines.append(f"| `{mech}` | " + " | ".join(cells.get(c, "—") for c in CONTEXTS) + " |")
        blocks.append((_label(f), "\n".join(lines)))
    return tabs(blocks)


def _code(src: str, path: str) -> str:
    """A reader's script as a code block titled with its file name."""
    if not (data.ROOT / path).is_file():
        raise BehaviourError(f"{src}: no script {path}")
    return f'```python title="{path.rsplit("/", 1)[-1]}"\n--8<-- "{path}"\n```'


def _shown(src: str, path: str, group: str, oid: str) -> str:
    """A reader's script, then what it printed on each committed JAX."""
    return _code(src, path) + "\n\n" + d_table(src, group, oid)


def _folded(src: str, path: str, group: str, oid: str, kind: str = "") -> str:
    """A script and its table in a block the reader opens (``???``): the page keeps the prose
    of each case in view, and stays short enough to scroll through. ``kind``: the words of
    the block's title (``gotcha``, ``fix``, ``program``), by default the group's."""
    title = word(src, f"{kind or group}-title", file=path.rsplit("/", 1)[-1])
    body = _shown(src, path, group, oid)
    inner = "\n".join("    " + line if line else line for line in body.split("\n"))
    return f'??? example "{title}"\n\n{inner}'


def d_gotcha(src: str, oid: str) -> str:
    """The trap: its script (``docs/gotchas/OID.py``), and what it printed on each JAX, in a
    folded block."""
    return _folded(src, f"docs/gotchas/{oid}.py", "gotcha", oid)


def d_gotcha_fix(src: str, oid: str) -> str:
    """What to write instead: its script (``docs/gotchas/OID.fix.py``) and what it printed,
    in a folded block."""
    return _folded(src, f"docs/gotchas/{oid}.fix.py", "fix", oid)


def d_program(src: str, path: str, group: str, oid: str) -> str:
    """Any other reader's script the behaviour session runs: the file, and what it printed,
    in a folded block."""
    return _folded(src, path, group, oid, kind="program")


def d_recipe(src: str, oid: str) -> str:
    """A recipe: its script (``docs/recipes/OID.py``), then what it printed on each JAX,
    one tab per version."""
    code = _code(src, f"docs/recipes/{oid}.py")
    blocks = []
    for _, f in files():
        o = _find(f, "recipe", oid)
        if o is None:
            continue
        text = str(o.outcome.get("output") or "").rstrip("\n")
        if o.outcome.get("error"):
            text += ("\n" if text else "") + f"raised {o.outcome['error']}"
        blocks.append((_label(f), f"```text\n{text}\n```"))
    if not blocks:
        raise BehaviourError(f"{src}: recipe {oid} is not measured in any committed file")
    return code + "\n\n" + word(src, "printed") + "\n\n" + tabs(blocks)


def d_compare(src: str, *oids: str) -> str:
    """Observations of group ``compare`` side by side: one column each, a fact per row,
    from the newest committed JAX that has them all (they are measured on one JAX only).

    On a Chinese page the facts are named in Chinese, as in ``behaviour-table``."""
    for _, f in files():
        obs = [_find(f, "compare", oid) for oid in oids]
        if all(o is not None for o in obs):
            break
    else:
        raise BehaviourError(f"{src}: no committed file has every compare observation {oids}")
    found = [o for o in obs if o is not None]
    facts: list[str] = []
    for o in found:
        facts += [k for k in o.outcome if k not in facts]
    rows = [
        f"| {_label(f)} | "
        + " | ".join(_heading(i18n.title(src, o.group, o.id, o.title)) for o in found)
        + " |",
        "|:--|" + ":--|" * len(found),
    ]
    for k in facts:
        rows.append(
            f"| {fact(src, k)} | " + " | ".join(_fmt(o.outcome.get(k), src) for o in found) + " |"
        )
    return "\n".join(rows)


def _heading(title: str) -> str:
    """A comparison's column heading: a call as code, a title in words (a Chinese one) as
    text."""
    return f"`{esc(title)}`" if title.isascii() else esc(title)


DIRECTIVES = {
    "behaviour-exceptions": d_exceptions,
    "compare": d_compare,
    "behaviour-table": d_table,
    "gotcha": d_gotcha,
    "gotcha-fix": d_gotcha_fix,
    "program": d_program,
    "recipe": d_recipe,
}


def observation(group: str, oid: str) -> list[tuple[str, schema.Observation | None]]:
    """The observation in every committed environment (``None`` where not measured)."""
    return [(_label(f), _find(f, group, oid)) for _, f in files()]
