"""Server actions that change streams: apply a proposal the user accepted, or create one.

Each checks its data against the payload's schema in `horizon.payloads`, acts
only on the user's own streams, commits, and answers with a message and the
stream as the API shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from pagechat.pages import ActionContext, ServerAction

from ..domain import (
    Category,
    Entity,
    PresentationConfig,
    RetrievalConfig,
    RetrievalQuery,
    SemanticSpace,
    StreamCreate,
    StreamPublic,
    StreamUpdate,
    Topic,
    create_stream,
    get_stream,
    stream_public,
    update_stream,
)
from ..payloads import PRESENTATION_CATEGORIES, RETRIEVAL_PROPOSAL, SCHEMA_PROPOSAL, STREAM_TEMPLATE
from .common import ActionFailed, ActionOutcome, action_scope, check_data, context_id

__all__ = [
    "APPLY_PRESENTATION_CATEGORIES",
    "APPLY_RETRIEVAL_PROPOSAL",
    "APPLY_SCHEMA_PROPOSAL",
    "CREATE_STREAM_FROM_TEMPLATE",
    "apply_presentation_categories",
    "apply_retrieval_proposal",
    "apply_schema_proposal",
    "create_stream_from_template",
]


def _topics(items: list[dict[str, Any]]) -> list[Topic]:
    return [Topic(name=t["name"], description=t.get("description", "")) for t in items]


def _entities(items: list[dict[str, Any]]) -> list[Entity]:
    return [Entity.model_validate({"name": e["name"], "type": e["type"]}) for e in items]


def _queries(items: list[dict[str, Any]]) -> list[RetrievalQuery]:
    return [
        RetrievalQuery(source=q["source"], query=q["query"], rationale=q.get("rationale", ""))
        for q in items
    ]


def _categories(items: list[dict[str, Any]]) -> list[Category]:
    return [Category(name=c["name"], description=c.get("description", "")) for c in items]


Build = Callable[[dict[str, Any], StreamPublic], StreamUpdate]


async def _apply(
    data: dict[str, Any], ctx: ActionContext, schema: dict[str, Any], what: str, build: Build
) -> ActionOutcome:
    """Check, find the user's stream, turn the data into an update with `build`, save."""
    try:
        check_data(schema, data)
        session, user_id = action_scope(ctx)
        stream_id = context_id(data, ctx, "stream_id", "stream")
        if stream_id is None:
            raise ActionFailed("Which stream? The page sent no stream_id.")
        stream = await get_stream(session=session, user_id=user_id, stream_id=stream_id)
        if stream is None:
            raise ActionFailed(f"Stream {stream_id} was not found.")
        current = await stream_public(session=session, stream=stream)
        update = build(data, current)
        await update_stream(session=session, stream=stream, stream_in=update)
        public = await stream_public(session=session, stream=stream)
        await session.commit()
    except ValidationError as exc:
        return ActionOutcome(f"The {what} cannot be applied: {_first_error(exc)}", ok=False)
    except ActionFailed as exc:
        return ActionOutcome(str(exc), ok=False)
    return ActionOutcome(f"Applied the {what} to “{public.name}”.", public.model_dump(mode="json"))


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()))
    return f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg"))


def _schema_update(data: dict[str, Any], current: StreamPublic) -> StreamUpdate:
    changes: dict[str, Any] = data["proposed_changes"]
    semantic: SemanticSpace = current.semantic_space.model_copy()
    if "topics" in changes:
        semantic.topics = _topics(changes["topics"])
    if "entities" in changes:
        semantic.entities = _entities(changes["entities"])
    for field in ("inclusion_notes", "exclusion_notes"):
        if field in changes:
            setattr(semantic, field, changes[field])
    return StreamUpdate(
        name=changes.get("stream_name"),
        purpose=changes.get("purpose"),
        semantic_space=SemanticSpace.model_validate(semantic.model_dump()),
    )


async def apply_schema_proposal(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    """A `schema_proposal`: its `proposed_changes` replace those fields of the stream."""
    return await _apply(data, ctx, SCHEMA_PROPOSAL.schema, "proposed changes", _schema_update)


async def apply_retrieval_proposal(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    """A `retrieval_proposal`: its queries replace the stream's."""
    return await _apply(
        data,
        ctx,
        RETRIEVAL_PROPOSAL.schema,
        "proposed queries",
        lambda d, _c: StreamUpdate(
            retrieval_config=RetrievalConfig(queries=_queries(d["queries"]))
        ),
    )


async def apply_presentation_categories(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    """A `presentation_categories` payload: its categories replace the stream's."""
    return await _apply(
        data,
        ctx,
        PRESENTATION_CATEGORIES.schema,
        "proposed categories",
        lambda d, _c: StreamUpdate(
            presentation_config=PresentationConfig(categories=_categories(d["categories"]))
        ),
    )


async def create_stream_from_template(data: dict[str, Any], ctx: ActionContext) -> ActionOutcome:
    """A `stream_template`: a new stream of the user's, made from it."""
    try:
        check_data(STREAM_TEMPLATE.schema, data)
        session, user_id = action_scope(ctx)
        stream_in = StreamCreate(
            name=data["name"],
            purpose=data["purpose"],
            semantic_space=SemanticSpace(
                topics=_topics(data["topics"]),
                entities=_entities(data.get("entities", [])),
                inclusion_notes=data.get("inclusion_notes", ""),
                exclusion_notes=data.get("exclusion_notes", ""),
            ),
            retrieval_config=RetrievalConfig(queries=_queries(data.get("queries", []))),
            presentation_config=PresentationConfig(
                categories=_categories(data.get("categories", []))
            ),
        )
        stream = await create_stream(session=session, user_id=user_id, stream_in=stream_in)
        public = await stream_public(session=session, stream=stream)
        await session.commit()
    except ValidationError as exc:
        return ActionOutcome(f"The template cannot be used: {_first_error(exc)}", ok=False)
    except ActionFailed as exc:
        return ActionOutcome(str(exc), ok=False)
    return ActionOutcome(
        f"Created the stream “{public.name}”.",
        {"stream_id": public.id, "stream": public.model_dump(mode="json")},
    )


APPLY_SCHEMA_PROPOSAL = ServerAction(
    "apply_schema_proposal",
    "Save a schema proposal's changes to the stream (data: the proposal, optionally stream_id).",
    apply_schema_proposal,
    data_schema=SCHEMA_PROPOSAL.schema,
)
APPLY_RETRIEVAL_PROPOSAL = ServerAction(
    "apply_retrieval_proposal",
    "Save a retrieval proposal's queries to the stream (data: the proposal).",
    apply_retrieval_proposal,
    data_schema=RETRIEVAL_PROPOSAL.schema,
)
APPLY_PRESENTATION_CATEGORIES = ServerAction(
    "apply_presentation_categories",
    "Save proposed presentation categories to the stream (data: the proposal).",
    apply_presentation_categories,
    data_schema=PRESENTATION_CATEGORIES.schema,
)
CREATE_STREAM_FROM_TEMPLATE = ServerAction(
    "create_stream_from_template",
    "Create a new research stream from a stream template (data: the template).",
    create_stream_from_template,
    data_schema=STREAM_TEMPLATE.schema,
)
