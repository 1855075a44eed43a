"""Real PDFs for the tests: text set in Helvetica, laid out line by line like a paper.

A minimal but complete PDF writer (catalog, pages, a font, content streams, an
info dictionary and a cross-reference table), so pypdf reads the files exactly
as it reads a journal's: no stand-in for the extraction pagechat does.
"""

from __future__ import annotations

import io
import textwrap

from pypdf import PdfWriter

_LINES_PER_PAGE = 48
_WRAP = 90


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _page_stream(lines: list[str]) -> bytes:
    body = [b"BT /F1 11 Tf 14 TL 56 760 Td"]
    body += [b"(" + _escape(line) + b") '" for line in lines]
    body.append(b"ET")
    return b"\n".join(body)


def text_pdf(paragraphs: list[str], *, title: str = "") -> bytes:
    """A PDF of `paragraphs` (a blank line between them, long ones wrapped), with `title`
    as its metadata title when given."""
    lines: list[str] = []
    for paragraph in paragraphs:
        lines += textwrap.wrap(paragraph, _WRAP) or [""]
        lines.append("")
    pages = [lines[i : i + _LINES_PER_PAGE] for i in range(0, len(lines), _LINES_PER_PAGE)]
    count = len(pages)
    kids = " ".join(f"{4 + 2 * n} 0 R" for n in range(count))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for n, page in enumerate(pages):
        stream = _page_stream(page)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {5 + 2 * n} 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    info = len(objects) + 1
    objects.append(b"<< /Title (" + _escape(title) + b") >>" if title else b"<< >>")
    return _assemble(objects, info)


def _assemble(objects: list[bytes], info: int) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, info, xref)
    )
    return out.getvalue()


def scanned_pdf() -> bytes:
    """A PDF whose page has no text at all, as a scan without OCR."""
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
