"""What each ask means, in words: a description and example phrasings per intent.

`scoring` recognises an ask by how much of a message's vocabulary an intent's
words share, so an intent is taught by adding phrasings here, not by writing a
pattern. `MAIN_TASKS` says which intents each page is for: a message that leans
the page's way is read that way, and when nothing fits well enough the page's
main tasks are offered as choices. Words in [brackets] stand for any subject:
they show where a topic goes and teach nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

IntentKind = Literal[
    "help",
    "compare",
    "validate",
    "search_reports",
    "article",
    "summarise_report",
    "template",
    "topics",
    "retrieval",
    "categories",
    "schema",
    "portfolio",
    "stream_suggestions",
    "list_streams",
    "stream_details",
    "search_pubmed",
    "chart_report",
    "chart_stream",
    "delete_report",
]


@dataclass(frozen=True)
class Intent:
    kind: IntentKind
    description: str
    examples: tuple[str, ...]


INTENTS: tuple[Intent, ...] = (
    Intent(
        "help",
        "what the assistant can do, its options and how it helps",
        (
            "what can you do",
            "how can you help me",
            "what are my options",
            "what can I ask you",
            "what do you know how to do",
        ),
    ),
    Intent(
        "compare",
        "compare two articles or two streams side by side, their differences",
        (
            "compare these two articles",
            "compare streams 1 and 2",
            "how do the top two papers differ",
            "what is the difference between the first two studies",
            "put the two best articles side by side",
            "contrast my streams",
        ),
    ),
    Intent(
        "validate",
        "check a stream's settings or a draft for problems, missing parts, readiness",
        (
            "validate this stream",
            "is my draft ready",
            "check the form for problems",
            "is anything missing",
            "did I forget anything",
            "does this look right",
            "review my setup",
            "is this complete enough to save",
            "any mistakes in my configuration",
            "sanity check it",
        ),
    ),
    Intent(
        "search_reports",
        "search the articles already in the user's reports",
        (
            "search my reports for [PD-1]",
            "which of my reports mention [melanoma]",
            "have my reports covered [immunotherapy]",
            "find articles in my reports about [insulin]",
            "did any report include a paper on [statins]",
            "look through my past reports",
        ),
    ),
    Intent(
        "article",
        "explain one article: its findings, methods, authors, abstract in plain words",
        (
            "tell me about this article",
            "explain this paper",
            "what did this study find",
            "what is it about",
            "explain it in plain words",
            "what are the main findings",
            "who wrote it and where was it published",
            "what does the abstract say",
            "what methods did they use",
            "is this study any good",
            "give me the key results",
            "explain the selected article",
            "tell me more about PMID",
        ),
    ),
    Intent(
        "summarise_report",
        "summarise the report on the page: highlights, themes and its best articles",
        (
            "summarise this report",
            "give me the gist",
            "what are the highlights",
            "what's in this report",
            "recap it for me",
            "what happened this week",
            "what should I read first",
            "what stands out",
            "brief me",
            "key takeaways",
            "anything important in here",
            "the main themes",
        ),
    ),
    Intent(
        "template",
        "draft a whole new stream, name, purpose and settings, from a research area",
        (
            "suggest a template",
            "fill in the form for me",
            "start a stream for [gene therapy]",
            "draft a stream about [obesity]",
            "set up a stream on [long covid]",
            "prefill everything",
            "I want to monitor [antibiotic resistance]",
            "help me create a stream",
            "build me a starting point",
        ),
    ),
    Intent(
        "topics",
        "suggest topics and subtopics a stream should cover",
        (
            "suggest topics",
            "what topics should I cover",
            "which subjects belong in this stream",
            "what themes am I missing",
            "add some subtopics",
            "what areas should it include",
        ),
    ),
    Intent(
        "retrieval",
        "suggest PubMed search queries, the retrieval strategy and search terms",
        (
            "suggest retrieval queries",
            "write the search query",
            "what search terms should I use",
            "improve my boolean search",
            "how should articles be fetched from PubMed",
            "which keywords will catch the right papers",
            "draft the pubmed query",
        ),
    ),
    Intent(
        "categories",
        "suggest presentation categories to group and organise a report's articles",
        (
            "which categories should I use",
            "how should I group the articles",
            "organise the report into sections",
            "suggest buckets for the results",
            "sort the papers into groups",
            "how to classify the articles",
        ),
    ),
    Intent(
        "schema",
        "propose the stream's semantic space: topics, entities, what is in and out of scope",
        (
            "propose a schema",
            "improve the semantic space",
            "refine the scope",
            "which entities matter here",
            "sharpen the definition of this stream",
            "what is in and out of scope",
            "make the description better",
        ),
    ),
    Intent(
        "portfolio",
        "insights across all streams: overlaps, gaps, coverage, redundancy",
        (
            "give me portfolio insights",
            "do my streams overlap",
            "where are the gaps in my coverage",
            "am I tracking the same thing twice",
            "how well do my streams cover the field",
            "analyse my streams as a whole",
            "any redundancy",
        ),
    ),
    Intent(
        "stream_suggestions",
        "recommend new streams the user could create",
        (
            "suggest new streams",
            "what else should I follow",
            "recommend another stream",
            "ideas for streams to add",
            "what am I not monitoring yet",
            "what other research areas could I track",
        ),
    ),
    Intent(
        "list_streams",
        "list the user's research streams",
        (
            "list my streams",
            "what streams do I have",
            "show all my streams",
            "what am I monitoring",
            "which feeds am I following",
            "remind me what I track",
            "how many streams are there",
        ),
    ),
    Intent(
        "stream_details",
        "the details and settings of one stream",
        (
            "details of this stream",
            "show stream 3",
            "tell me about stream 2",
            "what are its settings",
            "describe this stream",
            "how is it configured",
            "what does it monitor",
        ),
    ),
    Intent(
        "search_pubmed",
        "search PubMed for articles on a subject, or articles related to this one",
        (
            "find articles on [CRISPR]",
            "search PubMed for [heart failure]",
            "look up papers about [malaria vaccines]",
            "what has been published on [gut microbiome]",
            "any new studies on [sepsis]",
            "I need literature about [statins]",
            "find related articles",
            "similar papers",
            "anything else like this",
            "what else has been written on this",
            "get me recent research about [obesity]",
        ),
    ),
    Intent(
        "chart_report",
        "a chart of the report's articles per category and per publication year",
        (
            "chart this report",
            "plot the articles per category",
            "show a graph by year",
            "visualise the report",
            "how are the articles distributed",
            "a breakdown by category",
            "how old are these papers",
            "draw it",
        ),
    ),
    Intent(
        "chart_stream",
        "a chart of a stream's article counts over time, report by report",
        (
            "chart this stream over time",
            "plot the article counts of stream 2",
            "how has the number of articles changed",
            "show the trend of this stream",
            "graph the reports over time",
            "is the stream growing",
        ),
    ),
)

# Deleting is never a page's lean: only an ask that says so deletes (and then asks first).
INTENTS = (
    *INTENTS,
    Intent(
        "delete_report",
        "delete or remove a report the user no longer needs",
        (
            "delete this report",
            "delete report 3",
            "remove this report",
            "get rid of this report",
            "I don't need this report anymore",
            "erase the report",
            "throw this report away",
        ),
    ),
)

MAIN_TASKS: dict[str, tuple[IntentKind, ...]] = {
    "streams": (
        "list_streams",
        "stream_details",
        "portfolio",
        "stream_suggestions",
        "search_pubmed",
        "chart_stream",
    ),
    "new_stream": ("template", "topics", "validate"),
    "edit_stream": ("schema", "retrieval", "categories", "validate", "chart_stream"),
    "reports": ("summarise_report", "chart_report", "compare", "search_reports", "article"),
    "article": ("article", "search_pubmed", "compare"),
}
"""Each page's main tasks, most asked first: they lean ambiguous asks and fill the choices."""

TAB_TASKS: dict[str, IntentKind] = {
    "semantic": "schema",
    "retrieval": "retrieval",
    "presentation": "categories",
}
"""On the stream edit page, the task of each tab."""
