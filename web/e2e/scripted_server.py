"""A real pagechat server for the browser tests, with a scripted model.

Run with the project's Python: `../.venv/bin/python e2e/scripted_server.py --static dist`.
It prints `PORT <n>` once it listens on 127.0.0.1 (a free port unless --port is given).

The model's reply depends on keywords in the last user message:

  tool      a streaming tool with progress, then text    fail   a tool that fails
  choices   a ```choices block                           long   slow text (Stop, drop/resume)
  payload   a model-written PROJECT_PROPOSAL payload      note   a tool payload (global handler)
  suggest   suggested values and actions                 markdown  rich and hostile markdown
  context   echoes the project name from the page context
  think     a pause before the text                      error  the model fails after some text
  reason    reasoning streamed over about 1.5 s, then the answer
  cutoff    text cut off by the output limit (max_tokens)
  garbled   a PROJECT_PROPOSAL whose data is off its schema (an error card, not raw JSON)
  pick      a call of `present_choices` (the choices end the answer: no card, no second call)
  approve   a call of `delete_demo`, which needs the user's approval; then what came of it
  frontend  a call of `read_field`, the AG-UI client's own tool; then what the client answered
  regen     "Version N of the answer.", N counting up (regenerate)
  an unfinished answer last (Continue): the rest of it
  anything else: an echo

A message that starts with `xss ` sends the XSS corpus (e2e/xss_corpus.json) through one
channel instead (see `_xss_reply`): `xss text`, `xss tool`, `xss payload`, `xss choices`,
`xss chips`; `xss choice X` and `xss chip X` (what those buttons send) echo X and offer
the entry after X as the next button.

Test-only switch: `POST /__e2e__/drop?after=N` makes the next `POST /api/chat/stream`
response break after N events, as a dropped connection would (the run goes on).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import re
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import uvicorn
from sqlalchemy.ext.asyncio import AsyncEngine

from pagechat.auth.login import InvalidCredentials, PasswordLogin
from pagechat.events import ReasoningDelta
from pagechat.identity import Principal
from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem, tool_call
from pagechat.models.base import AssistantTurn, ModelFinish, ToolResultsTurn, UserTurn
from pagechat.models.errors import ModelOutputError
from pagechat.pages import ClientAction, PayloadConfig, ServerAction, register_page
from pagechat.protocol import ActionResult
from pagechat.server import StaticTokens, create_app
from pagechat.store import (
    SqlChatStore,
    User,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)
from pagechat.tools import ToolConfig, ToolContext, ToolProgress, ToolResult, register_tool

TOKEN = "e2e-token"
USER = Principal(id="u1", email="e2e@example.com")
PASSWORD = "e2e-password"


class E2EAuth(StaticTokens, PasswordLogin):
    """One fixed user and token; the password login of the UI's sign-in form works too."""

    def __init__(self) -> None:
        super().__init__({TOKEN: USER})

    async def login(
        self, *, email: str, password: str, client: str, user_agent: str | None = None
    ) -> str:
        if email == USER.email and password == PASSWORD:
            return TOKEN
        raise InvalidCredentials()


# --- tools -----------------------------------------------------------------


async def _slow_search(params: dict[str, Any], _ctx: ToolContext) -> AsyncIterator[Any]:
    yield ToolProgress(stage="searching", message="Searching PubMed…")
    await asyncio.sleep(0.6)
    for done in range(1, 4):
        yield ToolProgress(stage="fetching", message=f"Fetched {done} of 3", progress=done / 3)
        await asyncio.sleep(0.4)
    yield ToolResult(f"Found 3 articles about {params.get('query', '?')}: A, B, C.")


_LOOKUPS = itertools.count(1)


def _counted_lookup(_params: dict[str, Any], _ctx: ToolContext) -> str:
    # Numbered across the server's life, so a second run of the call shows as "lookup 2".
    return f"lookup {next(_LOOKUPS)} done"


def _broken_tool(_params: dict[str, Any], _ctx: ToolContext) -> str:
    raise RuntimeError("the archive is offline")


def _note_tool(_params: dict[str, Any], _ctx: ToolContext) -> ToolResult:
    return ToolResult(
        "Saved a note.", payload={"type": "demo_note", "data": {"text": "Remember the deadline."}}
    )


# Every payload of the XSS corpus, as text.
XSS = [
    str(entry["text"])
    for entry in json.loads(
        Path(__file__).with_name("xss_corpus.json").read_text(encoding="utf-8")
    )["entries"]
]


async def _xss_probe(_params: dict[str, Any], _ctx: ToolContext) -> AsyncIterator[Any]:
    for text in XSS:
        yield ToolProgress(stage=text, message=text)
        await asyncio.sleep(0.01)
    joined = "\n".join(XSS)
    yield ToolResult(joined, payload={"type": "demo_note", "data": {"text": joined}})


DELETED: list[int] = []


def _delete_demo(params: dict[str, Any], _ctx: ToolContext) -> str:
    DELETED.append(int(params["id"]))
    return f"Deleted demo item {params['id']}."


def _xss_fail(_params: dict[str, Any], _ctx: ToolContext) -> ToolResult:
    return ToolResult("\n".join(XSS), is_error=True)


_SEARCH_SCHEMA = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
}
_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}

for tool in (
    ToolConfig(
        name="slow_search",
        description="Search articles (slowly).",
        input_schema=_SEARCH_SCHEMA,
        executor=_slow_search,
    ),
    ToolConfig(
        name="counted_lookup",
        description="A lookup that numbers its runs.",
        input_schema=_EMPTY_SCHEMA,
        executor=_counted_lookup,
    ),
    ToolConfig(
        name="broken_tool",
        description="Always fails.",
        input_schema=_EMPTY_SCHEMA,
        executor=_broken_tool,
    ),
    ToolConfig(
        name="save_note",
        description="Save a note.",
        input_schema=_EMPTY_SCHEMA,
        executor=_note_tool,
    ),
    ToolConfig(
        name="xss_probe",
        description="Hostile progress, output and payload.",
        input_schema={"type": "object"},
        executor=_xss_probe,
    ),
    ToolConfig(
        name="xss_fail",
        description="Fails with a hostile error.",
        input_schema={"type": "object"},
        executor=_xss_fail,
    ),
    ToolConfig(
        name="delete_demo",
        description="Delete a demo item. It cannot be undone.",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "integer"}},
            "required": ["id"],
        },
        executor=_delete_demo,
        requires_approval=True,
    ),
):
    register_tool(tool)


# --- the demo page ------------------------------------------------------------


def _apply_demo(data: dict[str, Any], _ctx: Any) -> ActionResult:
    return ActionResult(
        action="apply_demo", message=f"Applied the plan for {data.get('name', 'the project')}."
    )


register_page(
    "demo",
    payloads=[
        PayloadConfig(
            type="project_proposal",
            parse_marker="PROJECT_PROPOSAL:",
            llm_instructions="Propose changes to the project as PROJECT_PROPOSAL: {json}.",
            schema={"type": "object"},
            state_key="proposal",
        )
    ],
    client_actions=[ClientAction("set_priority", "Set the project's priority.", ("priority",))],
    server_actions=[ServerAction("apply_demo", "Apply the plan.", _apply_demo)],
)


# --- the model ----------------------------------------------------------------

CHOICES = (
    "I can do this two ways.\n\n```choices\n"
    + json.dumps(
        {
            "question": "How should I add the source?",
            "options": [
                {"label": "Use RSS feed", "value": "rss"},
                {"label": "Use agentic extraction", "value": "agentic"},
            ],
        }
    )
    + "\n```"
)

MARKDOWN = """# Findings

Here is **bold**, `inline code` and a [safe link](https://example.com/docs).

- first point
- second point

| gene | effect |
|------|--------|
| BRCA1 | repair |

```python
def greet(name):
    return f"hello {name}"
```

Raw HTML stays text: <script>window.__pwned = true</script>
<img src=x onerror="window.__pwned = true"> and [a javascript link](javascript:window.__pwned=true).
"""

LONG_AFTER_LOOKUP = " ".join(f"Finding number {i} from the lookup." for i in range(1, 61))

PROPOSAL = {"name": "Renamed by the assistant", "priority": "high", "tags": ["crispr", "review"]}


def _chunks(text: str, size: int = 6) -> Iterator[str]:
    for i in range(0, len(text), size):
        yield text[i : i + size]


def _last_user(request: ModelRequest) -> tuple[str, bool]:
    """The last user message (lower case) and whether tool results followed it."""
    for i in range(len(request.messages) - 1, -1, -1):
        message = request.messages[i]
        if isinstance(message, UserTurn):
            after = request.messages[i + 1 :]
            return message.text.lower(), any(isinstance(m, ToolResultsTurn) for m in after)
    return "", False


def _slowly(text: str, pause: float, size: int = 6) -> list[ScriptItem]:
    items: list[ScriptItem] = []
    for chunk in _chunks(text, size):
        items += [chunk, Pause(pause)]
    return items


def _choice_groups(items: list[str]) -> list[list[str]]:
    """`items` in groups of two to four (a ```choices block's range)."""
    groups = [items[i : i + 4] for i in range(0, len(items), 4)]
    if len(groups) > 1 and len(groups[-1]) == 1:
        groups[-1].insert(0, groups[-2].pop())
    return groups


def _xss_choices(items: list[str]) -> str:
    blocks = []
    for n, group in enumerate(_choice_groups(items), start=1):
        options = [{"label": text, "value": f"xss choice {text}"} for text in group]
        body = json.dumps({"question": f"Choice {n}: {group[0]}", "options": options})
        blocks.append(f"```choices\n{body}\n```")
    return "\n\n".join(blocks)


def _xss_values(items: list[str]) -> str:
    values = [{"label": text, "value": f"xss chip {text}"} for text in items]
    return f"SUGGESTED_VALUES: {json.dumps(values)}"


def _xss_actions() -> str:
    # Client and server actions the demo page has, each with a hostile label and data.
    actions = [
        {"label": text, "action": "apply_demo", "handler": "server", "data": {"name": text}}
        if i % 2 == 0
        else {
            "label": text,
            "action": "set_priority",
            "handler": "client",
            "data": {"priority": text},
        }
        for i, text in enumerate(XSS)
    ]
    return f"SUGGESTED_ACTIONS: {json.dumps(actions)}"


def _xss_reply(message: str, after_tools: bool) -> list[ScriptItem]:
    """The XSS corpus through one channel, picked by the words after `xss `.

    A clicked choice or chip (`xss choice X`, `xss chip X`) is echoed as markdown, and the
    corpus entry after X is offered next, so a test can click every entry, one per turn.
    """
    mode, _, rest = message[len("xss ") :].partition(" ")
    if mode == "text":
        return _slowly("\n\n".join(XSS), 0.002, size=24)
    if mode == "tool":
        if after_tools:
            return ["Both probes ran."]
        return [
            "Running the probes.",
            tool_call("xss_probe", {"probe": XSS}),
            tool_call("xss_fail", {"reason": XSS[0]}),
        ]
    if mode == "payload":
        proposal = {
            "name": "\n".join(XSS),
            "priority": XSS[0],
            "tags": XSS,
            "reason": "\n".join(XSS),
        }
        return ["Here is my proposal.\n\nPROJECT_PROPOSAL: ", json.dumps(proposal)]
    if mode == "choices":
        return ["Pick one.\n\n" + _xss_choices(XSS)]
    if mode == "chips":
        return ["Pick one.\n\n", _xss_values(XSS) + "\n", _xss_actions()]
    if mode in ("choice", "chip"):
        at = XSS.index(rest) if rest in XSS else len(XSS)
        after = XSS[at + 1 : at + 3]
        echo = f"You picked:\n\n{rest}\n\n"
        if not after:
            return [echo + "That was the last one."]
        if mode == "chip":
            return [echo + "Next.\n\n", _xss_values(after[:1])]
        return [echo + _xss_choices(after if len(after) == 2 else [*after, XSS[0]])]
    return [f"Unknown xss mode: {mode}"]


def _last_user_raw(request: ModelRequest) -> str:
    for message in reversed(request.messages):
        if isinstance(message, UserTurn):
            return message.text
    return ""


_VERSIONS = itertools.count(1)


def reply(request: ModelRequest) -> list[ScriptItem]:
    last = request.messages[-1] if request.messages else None
    if isinstance(last, AssistantTurn) and last.partial:
        # Continue: the answer goes on from where it stopped.
        return _slowly(" And that is the rest of the answer.", 0.01)
    raw = _last_user_raw(request)
    text, after_tools = _last_user(request)
    if raw.startswith("xss "):
        return _xss_reply(raw, after_tools)
    if "frontend" in text:
        # read_field is the AG-UI client's own tool (agui.spec.ts): the client runs it.
        if after_tools:
            result = next(
                r
                for m in reversed(request.messages)
                if isinstance(m, ToolResultsTurn)
                for r in m.results
            )
            return [f"The page says the title is {result.content}."]
        return ["Asking the page.", tool_call("read_field", {"field": "title"})]
    if text.startswith("lookup then"):
        # Continue after Stop or the length limit, with a tool in the first part.
        if not after_tools:
            return ["Looking it up.", tool_call("counted_lookup", {})]
        if "cut" in text:
            cut = "The lookup says this answer stops in the middle of a sent"
            return [cut, ModelFinish(stop_reason="max_tokens")]
        return _slowly(LONG_AFTER_LOOKUP, 0.15)
    if "fail" in text:
        if after_tools:
            return ["The tool failed, sorry."]
        return ["Trying the archive.", tool_call("broken_tool", {})]
    if "tool" in text:
        if after_tools:
            return _slowly("I found **3 articles** about CRISPR: A, B and C.", 0.02)
        return [
            *_slowly("Let me search for that.", 0.02),
            tool_call("slow_search", {"query": "CRISPR"}),
        ]
    if "note" in text:
        if after_tools:
            return ["Noted."]
        return ["Saving.", tool_call("save_note", {})]
    if "choices" in text:
        return _slowly(CHOICES, 0.005)
    if "long" in text:
        body = " ".join(f"Sentence number {i} of a long answer." for i in range(1, 81))
        # Slower for the scroll test, so a loaded machine cannot finish the answer
        # before the test has scrolled up and watched it go on streaming.
        return _slowly(body, 0.05 if "scroll" in text else 0.02, size=12)
    if "garbled" in text:
        return [
            "Here is my proposal.\n\nPROJECT_PROPOSAL: ",
            '["not", "an", "object"]',
            "\nThoughts?",
        ]
    if "pick" in text:
        if after_tools:
            return ["This second call should never be made."]
        choose = {
            "question": "Which colour?",
            "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
        }
        return ["Let me ask.", tool_call("present_choices", choose)]
    if "payload" in text:
        return ["Here is my proposal.\n\nPROJECT_PROPOSAL: ", json.dumps(PROPOSAL)]
    if "suggest" in text:
        values = [
            {"label": "Yes, go ahead", "value": "yes, go ahead"},
            {"label": "No", "value": "no thanks"},
        ]
        actions = [
            {
                "label": "Make it high",
                "action": "set_priority",
                "handler": "client",
                "data": {"priority": "high"},
            },
            {
                "label": "Apply plan",
                "action": "apply_demo",
                "handler": "server",
                "data": {"name": "Demo"},
            },
            {"label": "Close chat", "action": "close_chat", "handler": "client"},
        ]
        return [
            "Shall I go on?\n\n",
            f"SUGGESTED_VALUES: {json.dumps(values)}\n",
            f"SUGGESTED_ACTIONS: {json.dumps(actions)}",
        ]
    if "markdown" in text:
        return _slowly(MARKDOWN, 0.002)
    if "context" in text:
        match = re.search(r'"name":\s*"([^"]*)"', request.system)
        return [f"Your project is called {match.group(1) if match else 'unknown'}."]
    if "approve" in text:
        if after_tools:
            result = next(
                r
                for m in reversed(request.messages)
                if isinstance(m, ToolResultsTurn)
                for r in m.results
            )
            if result.is_error:
                return [f"I kept item 7. ({result.content})"]
            return ["Item 7 is deleted."]
        return ["I will delete item 7.", tool_call("delete_demo", {"id": 7})]
    if "regen" in text:
        return [f"Version {next(_VERSIONS)} of the answer."]
    if "cutoff" in text:
        return ["This answer stops in the middle of a sent", ModelFinish(stop_reason="max_tokens")]
    if "reason" in text:
        thoughts = [f"Step {i} of weighing the question. " for i in range(1, 7)]
        steps: list[ScriptItem] = []
        for thought in thoughts:
            steps += [ReasoningDelta(text=thought), Pause(0.25)]
        return [*steps, "The reasoned answer."]
    if "think" in text:
        return [Pause(1.5), "Done thinking."]
    if "error" in text:
        return ["Starting the answer", Pause(0.2), ModelOutputError("the model broke down")]
    return [f"You said: {text}"]


# --- the dropped-connection switch ----------------------------------------------


class DropSwitch:
    """ASGI middleware: break the next chat stream after N events, once armed."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.after: int | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/__e2e__/drop":
            query = parse_qs(scope.get("query_string", b"").decode())
            self.after = int(query.get("after", ["3"])[0])
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        if (
            scope["type"] == "http"
            and scope["path"] == "/api/chat/stream"
            and self.after is not None
        ):
            limit, self.after = self.after, None
            sent = 0

            async def cutting_send(message: Any) -> None:
                nonlocal sent
                if message["type"] == "http.response.body" and b"data:" in message.get("body", b""):
                    if sent >= limit:
                        raise ConnectionResetError("e2e: connection dropped")
                    sent += 1
                await send(message)

            await self.app(scope, receive, cutting_send)
            return
        await self.app(scope, receive, send)


class _QuietDrops(logging.Filter):
    """Keeps the drops this server makes on purpose out of the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += repr(record.exc_info[1])
        return "e2e: connection dropped" not in text


async def _prepare(engine: AsyncEngine) -> None:
    await upgrade_async(engine)
    async with create_sessionmaker(engine).begin() as session:
        session.add(User(id=USER.id, email=USER.email, password_hash="-"))
    await engine.dispose()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--static", type=Path, default=Path(__file__).resolve().parent.parent / "dist"
    )
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    if not (args.static / "index.html").is_file():
        print(f"{args.static} has no index.html: run `npm run build` first", file=sys.stderr)
        return 2
    # A real SQLite database, so paused answers (tool approval) are stored as in production.
    workdir = Path(tempfile.mkdtemp(prefix="pagechat-e2e-"))
    engine = create_engine(f"sqlite+aiosqlite:///{workdir}/e2e.db")
    asyncio.run(_prepare(engine))
    sessions = create_sessionmaker(engine)
    app = create_app(
        model=FunctionModel(reply),
        store=SqlChatStore(sessions),
        authenticator=E2EAuth(),
        static_dir=args.static,
        sessions=sessions,
    )
    port = args.port or _free_port()
    config = uvicorn.Config(DropSwitch(app), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    logging.getLogger("uvicorn.error").addFilter(_QuietDrops())

    async def serve() -> None:
        task = asyncio.create_task(server.serve())
        # uvicorn offers a flag, not an event, for "listening".
        while not server.started and not task.done():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        if server.started:
            print(f"PORT {port}", flush=True)
        await task

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
