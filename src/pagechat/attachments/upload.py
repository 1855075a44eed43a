"""Reading one uploaded file from a multipart body as it arrives.

The body is parsed piece by piece (python-multipart, Starlette's own parser) into a
spooled temporary file (memory up to 1 MB, then disk), counting bytes: past the limit
the upload stops at once (`TooLarge`), before the rest is read. Only the part named
`file` is kept; its file name is metadata, cleaned by `clean_name`.
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import IO

from python_multipart import MultipartParser
from python_multipart.multipart import parse_options_header

__all__ = ["BadUpload", "TooLarge", "Upload", "clean_name", "receive_file"]

_SPOOL_BYTES = 1024 * 1024
_NAME_CHARS = 200
_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]+")


class TooLarge(Exception):
    """The file passed the limit of its user's role."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"over {limit} bytes")
        self.limit = limit


class BadUpload(Exception):
    """The body is not a multipart form with a `file` part."""


@dataclass(frozen=True, kw_only=True)
class Upload:
    """An uploaded file: its cleaned name, its bytes (spooled) and their count."""

    name: str
    file: IO[bytes]
    size: int


def clean_name(raw: str) -> str:
    """A file name fit to show and to put in a header: its last path part, no control or
    path characters, at most 200 characters; "file" when nothing is left."""
    name = unicodedata.normalize("NFC", raw).replace("\\", "/").rsplit("/", 1)[-1]
    name = _UNSAFE.sub("_", name).strip(" .")
    if len(name) > _NAME_CHARS:
        _, dot, ext = name.rpartition(".")
        keep = ext if dot and len(ext) <= 10 else ""
        name = name[: _NAME_CHARS - len(keep) - 1] + ("." + keep if keep else "")
    return name or "file"


class _FilePart:
    """The parser's callbacks: keep the `file` part's bytes, count them, stop at the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        # Closed by whoever takes the upload (the route), or here on a failure.
        self.file: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115
        self.size = 0
        self.name: str | None = None
        self._header_field = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._current = False
        self.found = False

    def callbacks(self) -> dict[str, object]:
        return {
            "on_part_begin": self._part_begin,
            "on_header_field": self._header_field_data,
            "on_header_value": self._header_value_data,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_finished,
            "on_part_data": self._part_data,
        }

    def _part_begin(self) -> None:
        self._headers = {}
        self._current = False

    def _header_field_data(self, data: bytes, start: int, end: int) -> None:
        self._header_field += data[start:end]

    def _header_value_data(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._header_field.lower()] = self._header_value
        self._header_field = self._header_value = b""

    def _headers_finished(self) -> None:
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        if options.get(b"name") == b"file" and not self.found:
            self._current = self.found = True
            raw = options.get(b"filename", b"file")
            self.name = clean_name(raw.decode("utf-8", "replace"))

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if not self._current:
            return
        self.size += end - start
        if self.size > self.limit:
            raise TooLarge(self.limit)
        self.file.write(data[start:end])


async def receive_file(body: AsyncIterator[bytes], *, content_type: str, limit: int) -> Upload:
    """The `file` part of a multipart body, read as it arrives; TooLarge past `limit`
    bytes, BadUpload for a body that is not such a form."""
    kind, options = parse_options_header(content_type)
    boundary = options.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise BadUpload("Send the file as multipart/form-data, in a field named file.")
    part = _FilePart(limit)
    parser = MultipartParser(boundary, part.callbacks())  # type: ignore[arg-type]
    try:
        async for chunk in body:
            parser.write(chunk)
        parser.finalize()
    except TooLarge:
        part.file.close()
        raise
    except Exception as error:
        part.file.close()
        raise BadUpload("The upload could not be read.") from error
    if not part.found or part.name is None:
        part.file.close()
        raise BadUpload("Send the file as multipart/form-data, in a field named file.")
    part.file.seek(0)
    return Upload(name=part.name, file=part.file, size=part.size)
