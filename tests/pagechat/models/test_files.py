"""A user's files through the real `anthropic` and `openai` SDKs against the local fakes:
the exact blocks each provider is sent, and a notice for a model that reads no images."""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator, Iterator

import pytest
from PIL import Image

from pagechat.attachments.content import prepare
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.base import FilePart, Model, ModelRequest, UserTurn
from pagechat.models.factory import model_from_settings
from pagechat.models.openai import OpenAIModel
from pagechat.settings import Settings
from tests.fakes.anthropic_server import FakeAnthropic, reply
from tests.fakes.openai_server import FakeOpenAI, text

PNG = FilePart(kind="image", name="chart.png", media_type="image/png", data=b"\x89PNG-bytes")
PAPER = FilePart(
    kind="pdf",
    name="paper.pdf",
    media_type="application/pdf",
    data=b"%PDF-1.7 bytes",
    text="Title: CRISPR in mice\nAbstract: We edit.",
    note="Cut: the text of the first 2 of 9 pages, up to 1,000 characters.",
)
NOTES = FilePart(kind="text", name="notes.md", media_type="text/plain", text="# Notes\nA line.")
ASK = ModelRequest(
    system="You are helpful.", messages=[UserTurn("What is this?", files=(PNG, PAPER, NOTES))]
)


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
async def claude(anthropic_server: FakeAnthropic) -> AsyncIterator[AnthropicModel]:
    model = AnthropicModel(
        "claude-haiku-4-5", api_key="sk-ant-test", base_url=anthropic_server.base_url
    )
    yield model
    await model.aclose()


@pytest.fixture
async def gpt(openai_server: FakeOpenAI) -> AsyncIterator[OpenAIModel]:
    model = OpenAIModel("gpt-test", api_key="sk-test", base_url=openai_server.base_url)
    yield model
    await model.aclose()


async def _drain(model: Model, request: ModelRequest) -> None:
    async for _ in model.stream(request):
        pass


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def test_anthropic_gets_an_image_block_a_document_block_and_the_text_file(
    anthropic_server: FakeAnthropic, claude: AnthropicModel
) -> None:
    anthropic_server.add(reply("A chart."))

    await _drain(claude, ASK)

    content = anthropic_server.requests[-1]["messages"][0]["content"]
    assert content[0] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": _b64(PNG.data)},
    }
    assert content[1] == {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": _b64(PAPER.data)},
        "title": "paper.pdf",
        "context": PAPER.note,
    }
    assert content[2]["type"] == "text"
    assert (
        content[2]["text"] == '<file name="notes.md" type="text/plain">\n# Notes\nA line.\n</file>'
    )
    assert content[3]["type"] == "text" and content[3]["text"] == "What is this?"


async def test_openai_gets_a_data_url_image_and_the_pdfs_extracted_text(
    openai_server: FakeOpenAI, gpt: OpenAIModel
) -> None:
    openai_server.push(text("A chart."))

    await _drain(gpt, ASK)

    user = openai_server.requests[-1].body["messages"][-1]
    assert user["role"] == "user"
    assert user["content"] == [
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{_b64(PNG.data)}"}},
        {
            "type": "text",
            "text": '<file name="paper.pdf" type="application/pdf">\n'
            "Title: CRISPR in mice\nAbstract: We edit.\n"
            "[Cut: the text of the first 2 of 9 pages, up to 1,000 characters.]\n</file>",
        },
        {
            "type": "text",
            "text": '<file name="notes.md" type="text/plain">\n# Notes\nA line.\n</file>',
        },
        {"type": "text", "text": "What is this?"},
    ]


async def test_a_model_without_image_input_reads_a_notice_instead(
    openai_server: FakeOpenAI, gpt: OpenAIModel
) -> None:
    gpt.accepts_images = False
    openai_server.push(text("I cannot see it."))

    await _drain(gpt, ModelRequest(system="", messages=[UserTurn("", files=(PNG,))]))

    user = openai_server.requests[-1].body["messages"][-1]
    assert user["content"] == [
        {
            "type": "text",
            "text": '[The user attached an image, "chart.png", which this model cannot see. '
            "Say so if the question depends on it.]",
        }
    ]


async def test_a_text_only_model_set_by_the_environment_reads_a_notice_instead(
    openai_server: FakeOpenAI,
) -> None:
    settings = Settings.model_validate(
        {
            "PAGECHAT_PROVIDER": "openai",
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": openai_server.base_url,
            "PAGECHAT_MODEL_IMAGES": "false",
        }
    )
    model = model_from_settings(settings)
    openai_server.push(text("I cannot see it."))
    try:
        await _drain(model, ModelRequest(system="", messages=[UserTurn("", files=(PNG,))]))
    finally:
        await model.aclose()

    user = openai_server.requests[-1].body["messages"][-1]
    assert "image_url" not in str(user["content"])
    assert user["content"] == [
        {
            "type": "text",
            "text": '[The user attached an image, "chart.png", which this model cannot see. '
            "Say so if the question depends on it.]",
        }
    ]


def test_models_read_images_unless_the_environment_says_not() -> None:
    keys = {"PAGECHAT_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k"}

    assert model_from_settings(Settings.model_validate(keys)).accepts_images
    assert not model_from_settings(
        Settings.model_validate(keys | {"PAGECHAT_MODEL_IMAGES": "false"})
    ).accepts_images


def test_an_image_is_re_encoded_resized_and_stripped_of_exif() -> None:
    photo = Image.new("RGB", (4000, 1000), (10, 120, 200))
    exif = Image.Exif()
    exif[0x8825] = {2: (51.0, 30.0, 0.0)}  # GPS latitude: where the photo was taken
    exif[0x010F] = "PhoneMaker"
    raw = io.BytesIO()
    photo.save(raw, "JPEG", exif=exif)
    assert b"PhoneMaker" in raw.getvalue()

    part = prepare(
        name="p.jpg", media_type="image/jpeg", data=raw.getvalue(), image_edge=1568, text_budget=1
    )

    assert part.kind == "image" and part.media_type == "image/jpeg"
    assert b"PhoneMaker" not in part.data and b"Exif" not in part.data
    with Image.open(io.BytesIO(part.data)) as sent:
        assert sent.size == (1568, 392)
        assert not sent.getexif()


def test_a_text_file_over_its_budget_is_cut_with_a_note() -> None:
    part = prepare(
        name="log.txt", media_type="text/plain", data=b"x" * 5000, image_edge=1, text_budget=1000
    )

    assert part.text == "x" * 1000
    assert part.note == "Cut: the first 1,000 of 5,000 characters are shown."
