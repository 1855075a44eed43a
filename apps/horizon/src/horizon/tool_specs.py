"""Names, descriptions and input schemas of Horizon's tools.

The tools themselves (executors over the database and PubMed) are built
elsewhere; this module is what both sides agree on, so the offline model and
the page instructions name tools that exist and call them with valid input::

    ToolConfig(name=SEARCH_PUBMED.name, description=SEARCH_PUBMED.description,
               input_schema=SEARCH_PUBMED.input_schema, executor=...)

Result text: tools answer with text a model can read. The offline model reads
it too, leniently; what it relies on is:

* an article is one line holding `PMID <id>` and its title after " — " (or
  "PMID: <id>" and "Title: ..." lines);
* a stream in a listing is one line holding "ID <n>" (or "[<n>]" / "#<n>");
* details are "Label: value" lines ("Name: ...", "Journal: ...").
"""

from __future__ import annotations

from typing import Any

from pagechat.models import ToolSpec

__all__ = [
    "ALL_TOOL_SPECS",
    "CHART_REPORT",
    "CHART_STREAM",
    "DELETE_REPORT",
    "GET_ARTICLE_DETAILS",
    "GET_PUBMED_ARTICLE",
    "GET_REPORT_ARTICLES",
    "GET_REPORT_SUMMARY",
    "GET_STREAM_DETAILS",
    "LIST_RESEARCH_STREAMS",
    "SEARCH_ARTICLES_IN_REPORTS",
    "SEARCH_PUBMED",
]


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_PMID: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 20,
    "description": "The article's PubMed ID, e.g. 38012345",
}
_QUERY: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 500}
# The bound of a SQL BIGINT: the model is told no larger id exists.
_ID: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}


def _limit(maximum: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": maximum}


SEARCH_PUBMED = ToolSpec(
    name="search_pubmed",
    description="Search research articles with PubMed's query syntax; returns the best "
    "matches with PMIDs. As the app is set up, it searches either Horizon's local article "
    "library (PubMed records imported earlier) or PubMed online; the result says which.",
    input_schema=_schema(
        {
            "query": {**_QUERY, "description": "Search terms or a PubMed boolean query"},
            "max_results": {**_limit(50), "description": "How many articles (default 10)"},
        },
        ["query"],
    ),
)

GET_PUBMED_ARTICLE = ToolSpec(
    name="get_pubmed_article",
    description="Fetch one PubMed article by PMID: title, authors, journal, year, abstract, DOI.",
    input_schema=_schema({"pmid": _PMID}, ["pmid"]),
)

LIST_RESEARCH_STREAMS = ToolSpec(
    name="list_research_streams",
    description="List the user's research streams with their IDs, names and purposes.",
    input_schema=_schema({}, []),
)

GET_STREAM_DETAILS = ToolSpec(
    name="get_stream_details",
    description="A research stream's full definition: purpose, topics, entities, queries, "
    "categories and its latest reports.",
    input_schema=_schema({"stream_id": _ID}, ["stream_id"]),
)

GET_REPORT_SUMMARY = ToolSpec(
    name="get_report_summary",
    description="A report's date, key highlights and thematic summary.",
    input_schema=_schema({"report_id": _ID}, ["report_id"]),
)

GET_REPORT_ARTICLES = ToolSpec(
    name="get_report_articles",
    description="The articles of a report, best ranked first, with relevance scores, "
    "categories and notes.",
    input_schema=_schema({"report_id": _ID, "limit": _limit(200)}, ["report_id"]),
)

SEARCH_ARTICLES_IN_REPORTS = ToolSpec(
    name="search_articles_in_reports",
    description="Search the articles in the user's reports (all streams) by words.",
    input_schema=_schema({"query": _QUERY, "limit": _limit(100)}, ["query"]),
)

GET_ARTICLE_DETAILS = ToolSpec(
    name="get_article_details",
    description="An article as stored in Horizon, with the reports it appears in and the "
    "user's notes and stars.",
    input_schema=_schema({"pmid": _PMID}, ["pmid"]),
)

CHART_REPORT = ToolSpec(
    name="chart_report",
    description="A chart of a report's articles: how many per category and per publication "
    "year. Shown to the user as a chart; returns the counts.",
    input_schema=_schema({"report_id": _ID}, ["report_id"]),
)

CHART_STREAM = ToolSpec(
    name="chart_stream",
    description="A chart of a stream's article counts over time, one point per report. Shown "
    "to the user as a chart; returns the counts.",
    input_schema=_schema({"stream_id": _ID}, ["stream_id"]),
)

DELETE_REPORT = ToolSpec(
    name="delete_report",
    description="Delete one of the user's reports, with its article list. It cannot be "
    "undone; the user is asked to approve first.",
    input_schema=_schema({"report_id": _ID}, ["report_id"]),
)

ALL_TOOL_SPECS: tuple[ToolSpec, ...] = (
    SEARCH_PUBMED,
    GET_PUBMED_ARTICLE,
    LIST_RESEARCH_STREAMS,
    GET_STREAM_DETAILS,
    GET_REPORT_SUMMARY,
    GET_REPORT_ARTICLES,
    SEARCH_ARTICLES_IN_REPORTS,
    GET_ARTICLE_DETAILS,
    CHART_REPORT,
    CHART_STREAM,
    DELETE_REPORT,
)
