"""The address the other phones at the table can open: this computer's on the local network.

``make run`` serves every interface; the share page then links to that address rather than to
127.0.0.1, which a phone cannot reach.
"""

from __future__ import annotations

import ipaddress
import socket

import segno

LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


def lan_address() -> str | None:
    """This computer's address on the local network (the one its traffic leaves from), or
    None when it has none but loopback. Nothing is sent: a UDP socket is only pointed at a
    private address so the system picks the interface."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def is_loopback(host: str) -> bool:
    """Whether a host name or address (no port) means this computer only."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def announce(host: str, port: int, address: str | None) -> tuple[str, str | None]:
    """What ``make run`` prints on start: the address for the phones (and its URL to put in a
    QR code), or why there is none."""
    if host in ("0.0.0.0", "::", ""):
        if address:
            url = f"http://{address}:{port}"
            return (f"Phones on this Wi-Fi open {url} (or scan the code below).\n"
                    f"To keep it to this computer: make run HOST=127.0.0.1"), url
        return (f"No network address found: phones cannot reach this computer. "
                f"On this computer open http://127.0.0.1:{port}"), None
    if is_loopback(host):
        return (f"Only this computer can open http://{host}:{port} "
                f"(make run without HOST serves the phones on the Wi-Fi)."), None
    url = f"http://{host}:{port}"
    return f"Phones on this network open {url} (or scan the code below).", url


def terminal_qr(url: str) -> str:
    """A QR code of ``url`` drawn with text characters, for the terminal."""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
