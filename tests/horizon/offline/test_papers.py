"""Reading a paper from a real PDF: its title, its abstract, and the summary."""

from __future__ import annotations

from horizon.offline.papers import read_paper, summary
from horizon.pubmed import ArticleRecord
from pagechat.attachments.content import prepare
from pagechat.models import FilePart
from tests.horizon.pdfs import scanned_pdf, text_pdf


def _part(data: bytes, name: str = "paper.pdf") -> FilePart:
    """The PDF as pagechat hands it to a model: its bytes and pypdf's text."""
    return prepare(
        name=name, media_type="application/pdf", data=data, image_edge=1568, text_budget=50_000
    )


def paper_pdf(record: ArticleRecord, *, heading: bool = True) -> bytes:
    """A paper laid out as journals do: a banner, the title, the authors, the abstract."""
    abstract = ["Abstract", record.abstract] if heading else [record.abstract]
    return text_pdf(
        [
            f"{record.journal} {record.year}",
            record.title,
            ", ".join(record.authors),
            *abstract,
            "Introduction",
            "This section is the body of the paper, not its abstract. It goes on.",
        ]
    )


def test_the_title_and_abstract_of_a_real_record_are_read_from_its_pdf(
    crispr_record: ArticleRecord,
) -> None:
    paper = read_paper(part=_part(paper_pdf(crispr_record)))

    assert paper.title == crispr_record.title.rstrip(".")
    assert paper.abstract == crispr_record.abstract
    assert paper.readable


def test_the_summary_is_the_title_and_the_abstracts_first_sentences(
    crispr_record: ArticleRecord,
) -> None:
    text = summary(read_paper(part=_part(paper_pdf(crispr_record))))

    first = crispr_record.abstract.split(". ")[0]
    assert crispr_record.title.rstrip(".") in text
    assert first in text
    assert "body of the paper" not in text


def test_without_an_abstract_heading_the_first_paragraph_is_the_abstract(
    crispr_record: ArticleRecord,
) -> None:
    paper = read_paper(part=_part(paper_pdf(crispr_record, heading=False)))

    assert paper.abstract == crispr_record.abstract


def test_a_real_metadata_title_wins_over_the_first_line() -> None:
    data = text_pdf(
        ["Preprint for review only, not for distribution", "Abstract: It works. Twice."],
        title="Base editing corrects sickle cell disease in mice",
    )

    paper = read_paper(part=_part(data))

    assert paper.title == "Base editing corrects sickle cell disease in mice"
    assert paper.abstract == "It works. Twice."


def test_a_file_name_as_metadata_title_is_not_taken_for_the_title() -> None:
    data = text_pdf(
        ["Prime editing in human stem cells at scale", "Abstract", "We edit. It works."],
        title="draft-v3.docx",
    )

    assert read_paper(part=_part(data)).title == "Prime editing in human stem cells at scale"


def test_a_pdf_without_text_is_said_to_be_unreadable() -> None:
    paper = read_paper(part=_part(scanned_pdf(), name="scan.pdf"))

    assert not paper.readable
    assert summary(paper).startswith("“scan.pdf” has no text I can read")


def test_a_pdf_with_text_but_no_abstract_says_so() -> None:
    paper = read_paper(part=_part(text_pdf(["A table of reagents and their suppliers"])))

    assert summary(paper) == (
        "The paper is **A table of reagents and their suppliers**. "
        "I found no abstract in its text, so I cannot say more."
    )


def test_a_wrapped_title_is_joined_but_the_authors_line_is_not() -> None:
    authors = "Ada Lovelace, Rosalind Franklin, Barbara McClintock"
    wrapped = text_pdf(
        [
            "Base editing corrects the sickle cell mutation in edited human",
            "haematopoietic stem cells",
            authors,
            "Abstract",
            "We edit. It works.",
        ]
    )
    one_line = text_pdf(
        ["Base editing corrects the sickle cell mutation in CRISPR edited stem cells", authors]
    )

    assert read_paper(part=_part(wrapped)).title == (
        "Base editing corrects the sickle cell mutation in edited human haematopoietic stem cells"
    )
    assert read_paper(part=_part(one_line)).title == (
        "Base editing corrects the sickle cell mutation in CRISPR edited stem cells"
    )
