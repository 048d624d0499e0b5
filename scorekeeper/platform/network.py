"""Where a tablet on the same network finds this machine: its IPv4 addresses, likeliest first,
and the QR codes that hand an address to a tablet's camera (as SVG for a page, as text blocks for
a terminal)."""

from __future__ import annotations

import base64
import functools
import io
import ipaddress
import socket
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

EVERY_INTERFACE = ("0.0.0.0", "::", "")
# Names only this machine reaches: a link made with one is useless to another tablet.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
# Any address outside this machine: connecting a UDP socket to it sends nothing, but tells which
# local address the default route leaves from (the Wi-Fi or wired network, not a VM bridge).
ROUTE_PROBE = ("198.51.100.1", 9)

Interfaces = Mapping[str, Iterable[str]]  # interface name -> its IPv4 addresses
# Home and club routers hand out these; container and VM bridges mostly sit in 172.16/12.
LIKELY_NETWORKS = tuple(
    ipaddress.IPv4Network(block) for block in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")
)


def machine_interfaces() -> dict[str, list[str]]:
    """The IPv4 addresses of every interface that is up."""
    import psutil

    stats = psutil.net_if_stats()
    return {
        name: [entry.address for entry in entries if entry.family == socket.AF_INET]
        for name, entries in psutil.net_if_addrs().items()
        if name not in stats or stats[name].isup
    }


def machine_networks() -> list[str]:
    """The IPv4 and IPv6 networks of every interface that is up, with their prefix lengths
    ("192.168.1.0/24", "2001:db8:1:2::/64"), loopback's too; link-local ones left out (no
    address a tablet is offered is in them)."""
    import psutil

    stats = psutil.net_if_stats()
    found: list[str] = []
    for name, entries in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for entry in entries:
            network = interface_network(entry.address, entry.netmask)
            if network is not None and network not in found:
                found.append(network)
    return found


def interface_network(address: str, netmask: str | None) -> str | None:
    """The network of an interface's address and netmask ("192.168.1.20", "255.255.255.0" ->
    "192.168.1.0/24"; IPv6 netmasks as psutil gives them, "ffff:ffff:ffff:ffff::"); None for
    anything else (a hardware address, no netmask, link-local)."""
    if not netmask:
        return None
    try:
        parsed = ipaddress.ip_address(address.split("%")[0])
        mask = ipaddress.ip_address(netmask.split("/")[0])
        if mask.version != parsed.version:
            return None
        network = ipaddress.ip_network(f"{parsed}/{bin(int(mask)).count('1')}", strict=False)
    except ValueError:
        return None
    return None if parsed.is_link_local else str(network)


def route_address() -> str | None:
    """The local address this machine reaches the network from, or None with no route out."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
            return probe.getsockname()[0]
        except OSError:
            return None


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost: a request from the serving machine itself."""
    if not address:
        return False
    if address == "localhost":
        return True
    try:
        parsed = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(parsed, "ipv4_mapped", None)
    return (mapped or parsed).is_loopback


def tablet_addresses(
    host: str, interfaces: Interfaces | None = None, preferred: str | None = None
) -> list[str]:
    """The addresses a tablet can open when the server listens on `host`, likeliest first.

    Listening on every interface, that is each non-loopback, non-link-local IPv4 of the machine:
    the default route's address first, then 192.168/16, 10/8 and 172.16/12 in that order, then
    the rest. On loopback, none. On one named address, that one. `interfaces` (name ->
    addresses) and `preferred` stand in for the machine's own, read when `interfaces` is None.
    """
    if host not in EVERY_INTERFACE:
        return [] if is_loopback(host) else [host]
    if interfaces is None:
        interfaces = machine_interfaces()
        preferred = route_address()
    found: list[ipaddress.IPv4Address] = []
    for addresses in interfaces.values():
        for text in addresses:
            try:
                address = ipaddress.IPv4Address(text)
            except ValueError:
                continue
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            if address not in found:
                found.append(address)
    found.sort(key=lambda address: (str(address) != preferred, _likeliness(address)))
    return [str(address) for address in found]


def _likeliness(address: ipaddress.IPv4Address) -> int:
    """0 for the network a tablet most likely shares with this machine, higher for less likely."""
    for rank, network in enumerate(LIKELY_NETWORKS):
        if address in network:
            return rank
    return len(LIKELY_NETWORKS)


def url(address: str, port: int, scheme: str = "http") -> str:
    """The address as a link, with brackets round an IPv6 literal."""
    shown = f"[{address}]" if ":" in address else address
    return f"{scheme}://{shown}:{port}/"


def tablet_urls(host: str, port: int, interfaces: Interfaces | None = None) -> list[str]:
    """`tablet_addresses` as links on `port`."""
    return [url(address, port) for address in tablet_addresses(host, interfaces)]


def on_loopback(host_url: str) -> bool:
    """Whether a page was opened by a name only this machine reaches (its links then need the
    machine's network address to work on another tablet)."""
    return urlsplit(host_url).hostname in LOOPBACK


QR_BORDER = 2  # modules of quiet zone: enough for a phone or tablet camera, small on a page


def _qr_code(text: str):
    import qrcode  # only when a code is drawn: the server starts faster without it

    code = qrcode.QRCode(border=QR_BORDER)
    code.add_data(text)
    code.make(fit=True)
    return code


def qr_svg(text: str) -> bytes:
    """The QR code of `text` as an SVG document (dark paths on a transparent ground)."""
    import qrcode.image.svg

    buffer = io.BytesIO()
    _qr_code(text).make_image(image_factory=qrcode.image.svg.SvgPathImage).save(buffer)
    return buffer.getvalue()


@functools.lru_cache(maxsize=16)
def qr_data_uri(text: str) -> str:
    """The QR code's SVG as a data: address, for an <img> that makes no request of its own (kept:
    the home page asks for the same address every time)."""
    return "data:image/svg+xml;base64," + base64.b64encode(qr_svg(text)).decode("ascii")


def qr_text(text: str, tty: bool = False) -> str:
    """The QR code drawn with half-block characters, light modules as blocks so that it reads on
    a dark terminal; on a terminal (tty) the colours are set explicitly, so it reads on any."""
    out = _Capture(tty)
    _qr_code(text).print_ascii(out=out, tty=tty, invert=True)
    return out.getvalue()


class _Capture(io.StringIO):
    """A text buffer that says whether it stands in for a terminal (qrcode's tty mode asks)."""

    def __init__(self, tty: bool):
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty
