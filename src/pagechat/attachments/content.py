"""A message's files made ready for the model: images re-encoded, PDFs and text read.

Images are opened again (the pixel count checked before decoding), turned upright,
resized to the model's longest edge and re-encoded (PNG when they have transparency or
were GIFs, else JPEG): only pixels travel, no metadata (EXIF location included). A PDF
keeps its bytes (Anthropic reads them as a document) and gets its text extracted page by
page with pypdf until the budget is spent (OpenAI-compatible models read that text). A
text file is its text, cut to the budget; a note says what was cut.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

from PIL import Image, ImageOps
from pypdf import PdfReader

from ..identity import Principal
from ..models.base import FilePart
from ..protocol import AttachmentRef
from .service import AttachmentNotFound, Attachments
from .sniff import MAX_IMAGE_PIXELS, MAX_PDF_PAGES

__all__ = ["TEXT_BUDGET", "file_parts", "prepare"]

TEXT_BUDGET = 48_000
"""Characters of file text one turn gives the model, shared by its files."""


async def file_parts(
    attachments: Attachments,
    user: Principal,
    refs: Sequence[AttachmentRef],
    *,
    image_edge: int,
    text_budget: int = TEXT_BUDGET,
) -> tuple[FilePart, ...]:
    """The model's view of the owner's files `refs`; one gone (deleted with its
    retention) is a note that it is no longer there."""
    share = max(1_000, text_budget // max(1, len(refs)))
    parts: list[FilePart] = []
    for ref in refs:
        try:
            info, chunks = await attachments.read(user, ref.id)
            data = b"".join([chunk async for chunk in chunks])
        except (AttachmentNotFound, FileNotFoundError):
            parts.append(_gone(ref))
            continue
        parts.append(
            await asyncio.to_thread(
                prepare,
                name=info.name,
                media_type=info.media_type,
                data=data,
                image_edge=image_edge,
                text_budget=share,
            )
        )
    return tuple(parts)


def _gone(ref: AttachmentRef) -> FilePart:
    return FilePart(
        kind="text",
        name=ref.name,
        media_type=ref.media_type,
        note="This file was deleted and is no longer available.",
    )


def prepare(
    *, name: str, media_type: str, data: bytes, image_edge: int, text_budget: int
) -> FilePart:
    """One file as the model gets it (blocking: run it in a thread)."""
    if media_type.startswith("image/"):
        return _image(name, data, image_edge)
    if media_type == "application/pdf":
        text, note = _pdf_text(data, text_budget)
        return FilePart(
            kind="pdf", name=name, media_type=media_type, data=data, text=text, note=note
        )
    text = data.decode("utf-8", "replace")
    note = ""
    if len(text) > text_budget:
        note = f"Cut: the first {text_budget:,} of {len(text):,} characters are shown."
        text = text[:text_budget]
    return FilePart(kind="text", name=name, media_type=media_type, text=text, note=note)


def _image(name: str, data: bytes, edge: int) -> FilePart:
    with Image.open(io.BytesIO(data)) as opened:
        width, height = opened.size
        if width * height > MAX_IMAGE_PIXELS:  # checked at upload; checked again: cheap
            raise ValueError("image over the pixel limit")
        animated = opened.format == "GIF"
        image = ImageOps.exif_transpose(opened)  # upright, as the user saw it
        image.thumbnail((edge, edge), Image.Resampling.LANCZOS)
        alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        out = io.BytesIO()
        # A new image from the pixels alone: no EXIF, no text chunks, no ICC profile.
        if alpha or animated:
            image.convert("RGBA" if alpha else "RGB").save(out, "PNG", optimize=True)
            media_type = "image/png"
        else:
            image.convert("RGB").save(out, "JPEG", quality=85)
            media_type = "image/jpeg"
    return FilePart(kind="image", name=name, media_type=media_type, data=out.getvalue())


def _pdf_text(data: bytes, budget: int) -> tuple[str, str]:
    """The PDF's text, page by page until the budget is spent, and a note of the cut."""
    reader = PdfReader(io.BytesIO(data))
    pages = len(reader.pages)
    texts: list[str] = []
    used = 0
    read = 0
    for page in reader.pages[:MAX_PDF_PAGES]:
        if used >= budget:
            break
        # pypdf bounds each stream's decompressed size (its filters' limits): no bomb.
        text = page.extract_text() or ""
        texts.append(text)
        used += len(text) + 2
        read += 1
    joined = "\n\n".join(texts)
    note = ""
    if len(joined) > budget or read < pages:
        note = f"Cut: the text of the first {read} of {pages} pages, up to {budget:,} characters."
        joined = joined[:budget]
    if not joined.strip():
        note = "This PDF has no extractable text (it may be scanned images)."
    return joined, note
