"""The offline model's own replies: help, honest limits, tool failures."""

from __future__ import annotations

from pagechat.tools import choices_block

from ..page_text import Label
from .reading import first_line
from .situation import Call, Done, Situation, Step, compose

OFFLINE_NOTE = (
    "I am Horizon's offline assistant: no language model is connected, so I do each page's "
    "main tasks (searching PubMed, explaining an article, summarising and charting a report, "
    "summarising a paper's PDF and proposing it for the stream, listing, comparing and "
    "charting your streams, drafting stream settings) but cannot chat "
    "freely. To chat freely, set ANTHROPIC_API_KEY (or OPENAI_API_KEY, and OPENAI_BASE_URL "
    "for an OpenAI-compatible server) and restart Horizon."
)

_EXAMPLE_SEARCH = "Search PubMed for CRISPR base editing"


def _help_options(s: Situation) -> list[tuple[str, str]]:
    """Two to four things the offline model can do on this page (label, message)."""
    page, tab = s.page_name, s.page.tab
    if page == "edit_stream":
        by_tab = {
            "retrieval": [("Suggest queries", "Suggest retrieval queries")],
            "presentation": [("Suggest categories", "Which categories should I use?")],
        }
        first = by_tab.get(tab or "", [("Propose a schema", "Propose a schema for this stream")])
        return [*first, ("Validate", "Validate this stream"), ("Details", "Details of this stream")]
    if page == "new_stream":
        return [
            ("Suggest a template", "Suggest a template"),
            ("Suggest topics", "Suggest topics"),
            ("Check my draft", "Validate my draft"),
        ]
    if page == "reports":
        options = [("Summarise", "Summarise this report"), ("Chart it", "Chart this report")]
        if len(s.page.items(Label.ARTICLES)) >= 2:
            options.append(("Compare top articles", "Compare the top two articles"))
        return [*options, ("Search my reports", "Search my reports for immunotherapy")]
    if page == "article":
        return [("Explain it", "Tell me about this article"), ("Related", "Find related articles")]
    if page == "streams":
        return [
            ("List my streams", "List my streams"),
            ("Portfolio insights", "Give me portfolio insights"),
            ("Suggest streams", "Suggest new streams"),
            ("Search PubMed", _EXAMPLE_SEARCH),
        ]
    return [("List my streams", "List my streams"), ("Search PubMed", _EXAMPLE_SEARCH)]


def help_reply(s: Situation) -> Step:
    options = [{"label": label, "value": value} for label, value in _help_options(s)[:4]]
    return Step(
        compose(
            "I am the offline assistant, so I understand a few requests. What would you like?",
            choices_block("What should I do?", options),
        )
    )


def fallback(s: Situation) -> Step:
    """Not sure what was asked: say so, and offer what this page is for."""
    options = [{"label": label, "value": value} for label, value in _help_options(s)[:4]]
    return Step(
        compose(
            "I am not sure what you mean, and I would rather ask than guess. " + OFFLINE_NOTE,
            choices_block("Did you mean one of these?", options),
        )
    )


def cannot_do(s: Situation, what: str) -> Step:
    """The plain answer to a request no page can do: "I can't …", then what it can do here."""
    options = _help_options(s)[:4]
    can = ", ".join(label[:1].lower() + label[1:] for label, _ in options)
    return Step(
        compose(
            f"I can't {what}. On this page I can: {can}. {OFFLINE_NOTE}",
            choices_block("What I can do here", [{"label": la, "value": v} for la, v in options]),
        )
    )


def cannot(s: Situation, tool: str, what: str) -> Step:
    """The honest answer when `tool` cannot be called now."""
    if tool not in s.tools:
        reason = f"the `{tool}` tool is not available here"
    else:
        reason = "I have used the tool calls this turn allows"
    return Step(f"I cannot {what}: {reason}.")


def failed(done: Done, what: str) -> Step:
    """The plain answer when a tool reported an error."""
    return Step(
        f"I could not {what}: the `{done.name}` tool failed ({first_line(done.text)}). "
        "Try again in a moment, or ask differently."
    )


def result_of(
    s: Situation, call: Call, *, saying: str, what: str, failed_what: str = ""
) -> Done | Step:
    """This turn's result of `call`'s tool, or the step to take instead: making the call
    (`saying` so), or the honest answer that it cannot `what` (the tool is not here, or
    no call is left), or that it could not (`failed_what`, else `what`: the tool failed)."""
    done = s.last(call.name)
    if done is None:
        if not s.can_call(call.name):
            return cannot(s, call.name, what)
        return Step(saying, (call,))
    if done.is_error:
        return failed(done, failed_what or what)
    return done
