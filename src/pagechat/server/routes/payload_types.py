"""The payload types the app declares, with their JSON Schemas: what the web UI's schema
card renders a payload by when no card of the app's own is registered for its type."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ...pages.catalog import payload_types
from ..deps import CurrentUser

__all__ = ["PayloadTypeInfo", "PayloadTypeList", "router"]

router = APIRouter(prefix="/api", tags=["pages"])


class PayloadTypeInfo(BaseModel):
    """One payload type as the client sees it."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    data_schema: dict[str, Any] | None = Field(default=None, alias="schema")
    """JSON Schema of the payload's `data`; null: any JSON."""
    title: str | None = None
    """The schema's title, if it has one."""
    pages: list[str]
    """The pages that declare it; empty for a global tool's type."""
    accept_actions: dict[str, str]
    """Per page, the server action Accept runs there with the payload's data."""


class PayloadTypeList(BaseModel):
    """Every payload type a registered page or a global tool declares, by type."""

    payload_types: dict[str, PayloadTypeInfo]


@router.get("/payload-types")
async def list_payload_types(user: CurrentUser) -> PayloadTypeList:
    """The payload types, their schemas and how each page accepts them."""
    return PayloadTypeList(
        payload_types={
            name: PayloadTypeInfo(
                data_schema=found.schema,
                title=found.title,
                pages=sorted(found.pages),
                accept_actions=found.accept_actions,
            )
            for name, found in sorted(payload_types().items())
        }
    )
