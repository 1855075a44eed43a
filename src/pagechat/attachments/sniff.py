"""What a file is, read from its bytes: never from its name or what the client said.

Accepted: PNG, JPEG, WebP and GIF images (opened by Pillow, which reads the header
only: the pixel count is checked before anything is decoded, so a decompression bomb
is refused unread), PDF (pypdf reads its cross-reference table and page count, never a
page's streams), and UTF-8 text. The bytes decide that a file is text; among text
types only, the file name's extension decides: `.md`/`.markdown` is `text/markdown`,
`.csv` is `text/csv`, other JSON that parses is `application/json`, and the rest is
`text/plain`. Everything else is refused (`Refused`, answered 415), markup included:
SVG and HTML can carry script, whatever the name or the client's declared type says.
"""

from __future__ import annotations

import codecs
import json
import warnings
from typing import IO

from PIL import Image
from pypdf import PdfReader
from pypdf.errors import PdfReadError

__all__ = [
    "IMAGE_TYPES",
    "MAX_IMAGE_PIXELS",
    "MAX_PDF_PAGES",
    "Refused",
    "sniff",
]

MAX_IMAGE_PIXELS = 50_000_000
"""The most pixels an image may declare (a 7,000 x 7,000 photo); more is a bomb."""
MAX_PDF_PAGES = 500
"""The most pages a PDF may have."""
IMAGE_TYPES = {
    "PNG": "image/png",
    "JPEG": "image/jpeg",
    "WEBP": "image/webp",
    "GIF": "image/gif",
}
"""Pillow's format name -> the media type served and sent to the model."""

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
)
_MARKUP = (b"<svg", b"<html", b"<!doctype", b"<script", b"<?xml", b"<body", b"<iframe")
_TEXT_CHUNK = 64 * 1024
_JSON_MAX = 2 * 1024 * 1024
# Only ever chosen after the bytes were read as safe UTF-8 text: a name never makes a
# file text, and no name maps to a type a browser would run (HTML, SVG).
_TEXT_EXTENSIONS = {
    "md": "text/markdown",
    "markdown": "text/markdown",
    "csv": "text/csv",
}


class Refused(Exception):
    """The file is not of a type accepted, or is unsafe to open: `detail` says why."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def sniff(file: IO[bytes], *, name: str = "") -> str:
    """The media type of `file`'s bytes (read from the start; left at an unknown place),
    or Refused. `name` (the file's name) only chooses among text types."""
    file.seek(0)
    head = file.read(16)
    if head.startswith(b"%PDF-"):
        return _pdf(file)
    image_format = _image_format(head)
    if image_format is not None:
        return _image(file, image_format)
    _check_text(file)
    return _text_type(file, name)


def _image_format(head: bytes) -> str | None:
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    return None


def _image(file: IO[bytes], expected: str) -> str:
    file.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # Only the header is read here: the size is known before any pixel is decoded.
            with Image.open(file, formats=[expected]) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    raise Refused(_too_many_pixels(width, height))
                image.verify()
    except Refused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused("This image is too large to open (too many pixels).") from None
    except Exception:
        raise Refused("This image could not be read: it may be damaged.") from None
    return IMAGE_TYPES[expected]


def _too_many_pixels(width: int, height: int) -> str:
    return (
        f"This image is {width:,} x {height:,} pixels: at most {MAX_IMAGE_PIXELS:,} "
        "pixels are accepted."
    )


def _pdf(file: IO[bytes]) -> str:
    file.seek(0)
    try:
        reader = PdfReader(file)
        if reader.is_encrypted:
            raise Refused("This PDF is encrypted: send one without a password.")
        pages = len(reader.pages)
    except Refused:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, RecursionError, OSError):
        raise Refused("This PDF could not be read: it may be damaged.") from None
    if pages > MAX_PDF_PAGES:
        raise Refused(f"This PDF has {pages:,} pages: at most {MAX_PDF_PAGES:,} are accepted.")
    return "application/pdf"


def _check_text(file: IO[bytes]) -> None:
    """Refused unless `file` is UTF-8 text without markup."""
    file.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    first = True
    size = 0
    while chunk := file.read(_TEXT_CHUNK):
        size += len(chunk)
        if first:
            start = chunk.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
            if any(start.startswith(tag) for tag in _MARKUP) or b"<script" in chunk.lower():
                raise Refused("HTML and SVG files are not accepted.")
            first = False
        if b"\x00" in chunk:
            raise _unknown()
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError:
            raise _unknown() from None
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise _unknown() from None
    if size == 0:
        raise Refused("This file is empty.")


def _text_type(file: IO[bytes], name: str) -> str:
    """The type of a file already known to be safe text: by extension, then by parse."""
    _, dot, extension = name.rpartition(".")
    by_name = _TEXT_EXTENSIONS.get(extension.lower()) if dot else None
    if by_name is not None:
        return by_name
    file.seek(0, 2)
    if file.tell() <= _JSON_MAX and _is_json(file):
        return "application/json"
    return "text/plain"


def _is_json(file: IO[bytes]) -> bool:
    file.seek(0)
    try:
        json.loads(file.read())
    except ValueError:
        return False
    return True


def _unknown() -> Refused:
    return Refused(
        "This type of file is not accepted: send an image (PNG, JPEG, WebP, GIF), "
        "a PDF, or a text file (text, Markdown, CSV, JSON)."
    )
