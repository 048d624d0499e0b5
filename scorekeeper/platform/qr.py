"""QR codes for a tablet's camera: as SVG for a page, and as text blocks for a terminal."""

from __future__ import annotations

import base64
import functools
import io

BORDER = 2  # modules of quiet zone: enough for a phone or tablet camera, small on a page


def _code(text: str):
    import qrcode  # only when a code is drawn: the server starts faster without it

    code = qrcode.QRCode(border=BORDER)
    code.add_data(text)
    code.make(fit=True)
    return code


def svg(text: str) -> bytes:
    """The code as an SVG document (dark paths on a transparent ground)."""
    import qrcode.image.svg

    buffer = io.BytesIO()
    _code(text).make_image(image_factory=qrcode.image.svg.SvgPathImage).save(buffer)
    return buffer.getvalue()


@functools.lru_cache(maxsize=16)
def svg_data_uri(text: str) -> str:
    """The SVG as a data: address, for an <img> that makes no request of its own (kept: the
    home page asks for the same address every time)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg(text)).decode("ascii")


def text_blocks(text: str, tty: bool = False) -> str:
    """The code drawn with half-block characters, light modules as blocks so that it reads on a
    dark terminal; on a terminal (tty) the colours are set explicitly, so it reads on any."""
    out = _Capture(tty)
    _code(text).print_ascii(out=out, tty=tty, invert=True)
    return out.getvalue()


class _Capture(io.StringIO):
    """A text buffer that says whether it stands in for a terminal (qrcode's tty mode asks)."""

    def __init__(self, tty: bool):
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty
