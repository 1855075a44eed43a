"""The type of a file, from its bytes alone."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from pypdf import PdfWriter

from pagechat.attachments import Refused, clean_name, sniff


def _image(kind: str, mode: str = "RGB") -> io.BytesIO:
    out = io.BytesIO()
    Image.new(mode, (8, 8)).save(out, kind)
    return out


@pytest.mark.parametrize(
    ("kind", "media_type"),
    [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp"), ("GIF", "image/gif")],
)
def test_images_are_known_by_their_bytes(kind: str, media_type: str) -> None:
    assert sniff(_image(kind)) == media_type


def test_a_pdf_with_too_many_pages_is_refused() -> None:
    writer = PdfWriter()
    for _ in range(501):
        writer.add_blank_page(width=10, height=10)
    out = io.BytesIO()
    writer.write(out)

    with pytest.raises(Refused, match="501 pages"):
        sniff(out)


def test_a_truncated_image_is_refused() -> None:
    data = _image("PNG").getvalue()

    with pytest.raises(Refused, match="damaged"):
        sniff(io.BytesIO(data[:40]))


def test_text_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(Refused, match="not accepted"):
        sniff(io.BytesIO("café".encode("latin-1")))


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\photo.png", "photo.png"),
        ("..", "file"),
        ("a\x00b.txt", "a_b.txt"),
        ("x" * 300 + ".pdf", "x" * 196 + ".pdf"),
    ],
)
def test_names_lose_their_paths_and_control_characters(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    ("name", "data", "media_type"),
    [
        ("notes.md", b"# Notes\n- a", "text/markdown"),
        ("README.Markdown", b"Title\n=====", "text/markdown"),
        ("table.csv", b"a,b\n1,2\n", "text/csv"),
        ("one.csv", b"1", "text/csv"),
        ("one.txt", b"1", "application/json"),
        ("notes.txt", b"# Notes", "text/plain"),
        ("md", b"# Notes", "text/plain"),
    ],
)
def test_markdown_and_csv_are_typed_by_extension_among_text(
    name: str, data: bytes, media_type: str
) -> None:
    assert sniff(io.BytesIO(data), name=name) == media_type


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("page.md", b"<html><script>alert(1)</script></html>"),
        ("cat.csv", b'<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
        ("bytes.md", b"\x00\x01\x02binary"),
        ("latin.csv", "caf\u00e9".encode("latin-1")),
    ],
)
def test_a_text_extension_never_makes_markup_or_binary_text(name: str, data: bytes) -> None:
    with pytest.raises(Refused):
        sniff(io.BytesIO(data), name=name)


def test_a_markdown_name_does_not_change_an_image_or_pdf() -> None:
    assert sniff(_image("PNG"), name="picture.md") == "image/png"
