"""Asks answered with Horizon's tools: call them, then write the answer from their text."""

from __future__ import annotations

from pagechat.pages import find_choice_blocks
from pagechat.tools import PRESENT_CHOICES, choices_block

from ..page_text import Label, split_item
from ..tool_specs import (
    GET_ARTICLE_DETAILS,
    GET_PUBMED_ARTICLE,
    GET_REPORT_ARTICLES,
    GET_REPORT_SUMMARY,
    GET_STREAM_DETAILS,
    LIST_RESEARCH_STREAMS,
    SEARCH_ARTICLES_IN_REPORTS,
    SEARCH_PUBMED,
)
from .asks import Ask
from .drafting import key_words
from .reading import (
    articles_in,
    cite,
    fields_in,
    first_line,
    first_lines,
    listing_lines,
    sentences,
    source_numbers,
    stream_ids_in,
    without_sources,
)
from .replies import result_of
from .situation import Call, Situation, Step, actions, compose, suggestions

_SHOWN = 5
_EXAMPLES = ("CRISPR base editing", "SGLT2 inhibitors in heart failure", "mRNA vaccines")


def _article_list(found: list[tuple[str, str]], numbers: dict[str, int]) -> str:
    """The first articles, each citing its source number (`[n]`) when it has one."""
    return "\n".join(
        f"{n}. **{title or 'Untitled'}** (PMID {pmid}){cite(numbers, pmid)}"
        for n, (pmid, title) in enumerate(found[:_SHOWN], 1)
    )


def _more_about(found: list[tuple[str, str]], count: int = 3) -> list[tuple[str, str]]:
    return [(f"More on PMID {p}", f"Tell me more about PMID {p}") for p, _ in found[:count]]


def search_pubmed(s: Situation, ask: Ask) -> Step:
    query = ask.query or _query_from_page(s)
    if not query:
        return _choose_search(s)
    call = Call(SEARCH_PUBMED.name, {"query": query, "max_results": 10})
    done = result_of(s, call, saying=f"Searching PubMed for “{query}”.", what="search PubMed")
    if isinstance(done, Step):
        return done
    found = articles_in(done.text)
    if not found:
        return Step(f"PubMed found nothing for “{query}”. Try fewer or broader words.")
    return Step(
        compose(
            f"The first {min(len(found), _SHOWN)} of the {len(found)} articles PubMed returned "
            f"for “{query}”:",
            _article_list(found, source_numbers(done.text)),
            suggestions(_more_about(found)),
        )
    )


def _query_from_page(s: Situation) -> str:
    """On an article's page, "find related articles" searches for its title's key phrases."""
    title = s.page.field(Label.TITLE) if s.page_name == "article" else None
    return key_words(title) if title else ""


def _choose_search(s: Situation) -> Step:
    topics = [split_item(t)[0] for t in s.page.items(Label.TOPICS)]
    subjects = list(dict.fromkeys([*topics, *_EXAMPLES]))[:3]
    options = [{"label": t, "value": f"Search PubMed for {t}"} for t in subjects]
    question = "What should I search PubMed for?"
    done = s.last(PRESENT_CHOICES.name)
    if done is not None and not done.is_error:
        blocks = [b for b in find_choice_blocks(done.text) if b.valid]
        if blocks:
            return Step(done.text[blocks[0].start : blocks[0].end])
    if done is None and s.can_call(PRESENT_CHOICES.name):
        return Step("", (Call(PRESENT_CHOICES.name, {"question": question, "options": options}),))
    return Step(choices_block(question, options))


def listed_pmids(s: Situation) -> list[str]:
    """The PMIDs of the articles the page lists (the reports page), in its order."""
    heads = [split_item(i)[0].split() for i in s.page.items(Label.ARTICLES)]
    return [h[1] for h in heads if len(h) > 1 and h[0] == "PMID" and h[1] != "unknown"]


def _pmid_from_page(s: Situation) -> str | None:
    return s.page.field(Label.SELECTED_PMID) or s.page.field(Label.ARTICLE_PMID)


def article_tool(s: Situation) -> str:
    if GET_PUBMED_ARTICLE.name in s.tools or GET_ARTICLE_DETAILS.name not in s.tools:
        return GET_PUBMED_ARTICLE.name
    return GET_ARTICLE_DETAILS.name


def article(s: Situation, ask: Ask) -> Step:
    pmid = ask.pmids[0] if ask.pmids else _pmid_from_page(s)
    if pmid is None:
        chips = [(f"PMID {p}", f"Tell me about PMID {p}") for p in listed_pmids(s)[:3]]
        return Step(compose("Which article? Give me its PMID.", suggestions(chips)))
    call = Call(article_tool(s), {"pmid": pmid})
    done = result_of(s, call, saying=f"Looking up PMID {pmid}.", what=f"look up PMID {pmid}")
    if isinstance(done, Step):
        return done
    fields = fields_in(done.text)
    title = fields.get("Title")
    byline = " · ".join(v for k in ("Authors", "Journal", "Year", "DOI") if (v := fields.get(k)))
    abstract = sentences(_abstract(without_sources(done.text)), 3)
    body = (
        compose(
            f"**{title}**{cite(source_numbers(done.text), pmid)}",
            byline,
            f"> {abstract}" if abstract else "",
        )
        if title
        else "\n".join(first_lines(done.text, 6))
    )
    chips = []
    if title:
        chips.append(("Related articles", f"Find articles on {key_words(title)}"))
    buttons = []
    if s.page_name == "reports":
        buttons = [
            {
                "label": "Open the article",
                "action": "open_article",
                "handler": "client",
                "data": {"pmid": pmid},
            }
        ]
    return Step(compose(f"PMID {pmid}:", body, suggestions(chips), actions(buttons)))


def _abstract(text: str) -> str:
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.strip().lower().startswith("abstract:"):
            return " ".join([line.split(":", 1)[1], *lines[number + 1 :]])
    return ""


def summarise_report(s: Situation, ask: Ask) -> Step:
    report_id = ask.ids[0] if ask.ids else s.page.number(Label.REPORT_ID)
    if report_id is None:
        return Step(
            compose(
                "Open a report first: I summarise the report on the page (or name one, "
                "like “summarise report 12”).",
                suggestions([("List my streams", "List my streams")]),
            )
        )
    summary = result_of(
        s,
        Call(GET_REPORT_SUMMARY.name, {"report_id": report_id}),
        saying=f"Reading report {report_id}.",
        what=f"summarise report {report_id}",
        failed_what=f"read report {report_id}",
    )
    if isinstance(summary, Step):
        return summary
    listing = s.last(GET_REPORT_ARTICLES.name)
    if listing is None and s.can_call(GET_REPORT_ARTICLES.name):
        call = Call(GET_REPORT_ARTICLES.name, {"report_id": report_id, "limit": 10})
        return Step("Now its best-ranked articles.", (call,))
    fields = fields_in(summary.text)
    points = [
        f"**{label}:** {fields[label]}"
        for label in ("Date", "Key highlights", "Thematic summary")
        if label in fields
    ] or first_lines(summary.text, 4)
    found = articles_in(listing.text) if listing is not None and not listing.is_error else []
    if listing is not None and listing.is_error:
        top = f"(The article list failed: {first_line(listing.text)}.)"
    else:
        numbers = source_numbers(listing.text) if listing is not None else {}
        top = compose("**Top articles**", _article_list(found, numbers)) if found else ""
    chips = _more_about(found, 2)
    if len(found) >= 2:
        chips.append(("Compare the top two", f"Compare PMID {found[0][0]} and PMID {found[1][0]}"))
    return Step(
        compose(f"Report {report_id} in short:", "\n".join(points), top, suggestions(chips))
    )


def list_streams(s: Situation, ask: Ask) -> Step:
    call = Call(LIST_RESEARCH_STREAMS.name, {})
    done = result_of(s, call, saying="Listing your research streams.", what="list your streams")
    if isinstance(done, Step):
        return done
    lines = listing_lines(done.text, 10)
    ids = stream_ids_in(done.text)
    if not lines:
        return Step("You have no research streams yet.")
    chips = [(f"Stream {i}", f"Show details of stream {i}") for i in ids[:3]]
    return Step(
        compose(
            f"Your research streams ({len(lines)} shown):",
            "\n".join(f"- {line}" for line in lines),
            suggestions(chips),
        )
    )


def stream_details(s: Situation, ask: Ask) -> Step:
    stream_id = ask.ids[0] if ask.ids else s.page.number(Label.STREAM_ID)
    if stream_id is None:
        return _pick_stream(s)
    done = result_of(
        s,
        Call(GET_STREAM_DETAILS.name, {"stream_id": stream_id}),
        saying=f"Fetching stream {stream_id}.",
        what=f"show stream {stream_id}",
        failed_what=f"fetch stream {stream_id}",
    )
    if isinstance(done, Step):
        return done
    fields = fields_in(done.text)
    lines = [f"- **{k}:** {v}" for k, v in list(fields.items())[:10]]
    chips = []
    if name := fields.get("Name"):
        chips.append(("Search PubMed", f"Search PubMed for {name}"))
    return Step(
        compose(
            f"Stream {stream_id}:",
            "\n".join(lines) or "\n".join(first_lines(done.text, 10)),
            suggestions(chips),
        )
    )


def _pick_stream(s: Situation) -> Step:
    """No stream named: list them, then ask which one."""
    listing = s.last(LIST_RESEARCH_STREAMS.name)
    if listing is None:
        if not s.can_call(LIST_RESEARCH_STREAMS.name):
            return Step("Which stream? Name it by number, like “details of stream 3”.")
        return Step("Which stream? Let me list them.", (Call(LIST_RESEARCH_STREAMS.name, {}),))
    ids = stream_ids_in(listing.text) if not listing.is_error else []
    if len(ids) < 2:
        if not ids:
            return Step("I found no streams to choose from.")
        return Step(f"You have one stream, number {ids[0]}: ask for “details of stream {ids[0]}”.")
    options = [{"label": f"Stream {i}", "value": f"Show details of stream {i}"} for i in ids[:4]]
    return Step(choices_block("Which stream?", options))


def search_reports(s: Situation, ask: Ask) -> Step:
    if not ask.query:
        return Step(
            "What should I look for in your reports? For example: “search my reports for PD-1”."
        )
    call = Call(SEARCH_ARTICLES_IN_REPORTS.name, {"query": ask.query, "limit": 10})
    saying = f"Searching your reports for “{ask.query}”."
    done = result_of(s, call, saying=saying, what="search your reports")
    if isinstance(done, Step):
        return done
    found = articles_in(done.text)
    if not found:
        return Step(f"None of your reports has an article about “{ask.query}”.")
    return Step(
        compose(
            f"Articles in your reports about “{ask.query}”:",
            _article_list(found, source_numbers(done.text)),
            suggestions(_more_about(found)),
        )
    )
