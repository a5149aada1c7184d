"""The shape of a multi-process job, and the port its coordinator listens on, checked
before any process starts.

A :class:`Layout` is ``processes`` processes with ``local_devices`` CPU devices each (default
2 × 2); :meth:`Layout.of` also takes the total device count the command line may give. A
coordinator port must be free on 127.0.0.1 (:func:`check_port`); without one, the kernel
picks a free port (:func:`free_port`). :func:`check_loopback` refuses a machine whose host
name does not resolve to a loopback address, because gloo listens there. No JAX here.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket

__all__ = ["MAX_PROCESSES", "Layout", "LayoutError", "check_loopback", "check_port", "free_port"]

MAX_PROCESSES = 16


class LayoutError(ValueError):
    """A layout or port that cannot work; raised before any process starts."""


@dataclasses.dataclass(frozen=True)
class Layout:
    """``processes`` processes with ``local_devices`` CPU devices each."""

    processes: int = 2
    local_devices: int = 2

    def __post_init__(self) -> None:
        p, d = _whole(self.processes), _whole(self.local_devices)
        if p is None or p < 2:
            raise LayoutError(
                f"a multi-process layout needs at least 2 processes, got {self.processes!r} "
                "(one process is `jaxcb matrix` without --processes)"
            )
        if p > MAX_PROCESSES:
            raise LayoutError(f"at most {MAX_PROCESSES} processes on one machine, got {p}")
        if d is None or d < 1:
            raise LayoutError(f"each process needs at least 1 device, got {self.local_devices!r}")

    @property
    def devices(self) -> int:
        return self.processes * self.local_devices

    @classmethod
    def of(
        cls, processes: int = 2, local_devices: int | None = None, devices: int | None = None
    ) -> Layout:
        """From the command line: ``devices`` is the total over all processes."""
        if devices is None:
            return cls(processes, 2 if local_devices is None else local_devices)
        if devices < 1:
            raise LayoutError(f"a job needs at least 1 device, got {devices}")
        if local_devices is not None:
            layout = cls(processes, local_devices)
            if devices != layout.devices:
                more = "more" if devices > layout.devices else "fewer"
                raise LayoutError(
                    f"{devices} devices is {more} than {processes} processes × "
                    f"{local_devices} devices each = {layout.devices}"
                )
            return layout
        cls(processes, 1)  # the process count on its own
        if devices < processes:
            raise LayoutError(
                f"{devices} devices for {processes} processes: a process would have none"
            )
        if devices % processes:
            raise LayoutError(f"{devices} devices do not split evenly over {processes} processes")
        return cls(processes, devices // processes)


def port_free(port: int) -> bool:
    """Whether nothing listens on ``127.0.0.1:port`` (a bind that would succeed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that nothing uses now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _whole(value: object) -> int | None:
    """``value`` if it is an int (not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_port(port: int) -> int:
    """``port``, if it can be the coordinator's: a port number nothing listens on."""
    p = _whole(port)
    if p is None or not 1 <= p <= 65535:
        raise LayoutError(f"a port is a number from 1 to 65535, got {port!r}")
    if not port_free(port):
        raise LayoutError(
            f"port {port} on 127.0.0.1 is in use: pick another, or leave the port out to get a "
            "free one"
        )
    return port


def check_loopback() -> None:
    """gloo listens on the address this machine's host name resolves to (JAX has no public
    option to choose it): refuse to start where that is not a loopback address."""
    name = socket.gethostname()
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except OSError:
        found = set()
    if not found or not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in found):
        raise LayoutError(
            f"the host name {name!r} resolves to {sorted(found) or 'nothing'}: JAX's gloo "
            "collectives would listen there, and this harness stays on 127.0.0.1"
        )
