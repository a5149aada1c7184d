"""What the fault tests read from /proc (Linux), without psutil: processes and sockets.

``workers(parent)`` lists the worker processes a launcher started; ``session_members``
finds anything left in their sessions; ``sockets(pids)`` lists the TCP sockets those
processes hold, from ``/proc/<pid>/fd`` and ``/proc/net/tcp{,6}``; ``listening(port)``
says whether anything on this machine still listens on a port.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from pathlib import Path

LISTEN = "0A"


@dataclasses.dataclass(frozen=True)
class Socket:
    local: ipaddress.IPv4Address | ipaddress.IPv6Address
    local_port: int
    remote: ipaddress.IPv4Address | ipaddress.IPv6Address
    state: str

    @property
    def loopback_only(self) -> bool:
        def loop(a: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
            mapped = getattr(a, "ipv4_mapped", None)
            return (mapped or a).is_loopback

        return loop(self.local) and (self.state == LISTEN or loop(self.remote))


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # after "pid (comm) ": state, ppid, pgrp, sid


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def workers(parent: int) -> list[int]:
    out = []
    for pid in _pids():
        fields = _stat(pid)
        if fields is None or int(fields[1]) != parent:
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"jaxcb_core.distributed.worker" in cmdline:
            out.append(pid)
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` exists at all (a zombie counts: it was not reaped)."""
    return Path(f"/proc/{pid}").exists()


def session_members(sessions: set[int]) -> list[int]:
    """Processes in any of these sessions (a worker's children would be there)."""
    found = []
    for pid in _pids():
        fields = _stat(pid)
        if fields is not None and int(fields[3]) in sessions:
            found.append(pid)
    return found


def _address(text: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    host, port = text.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return ipaddress.IPv4Address(raw[::-1]), int(port, 16)
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return ipaddress.IPv6Address(words), int(port, 16)


def _table() -> dict[str, Socket]:
    out = {}
    for name in ("tcp", "tcp6"):
        path = Path(f"/proc/net/{name}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            f = line.split()
            (local, lport), (remote, _) = _address(f[1]), _address(f[2])
            out[f[9]] = Socket(local, lport, remote, f[3])
    return out


def sockets(pids: list[int]) -> list[Socket]:
    inodes = set()
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    table = _table()
    return [table[i] for i in sorted(inodes) if i in table]


def listening(port: int) -> bool:
    return any(s.local_port == port and s.state == LISTEN for s in _table().values())
