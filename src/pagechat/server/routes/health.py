"""Liveness, and which model answers: no token needed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..deps import ChatServiceDep

__all__ = ["router"]

router = APIRouter(tags=["health"])


@router.get("/api/health")
async def health(chat: ChatServiceDep) -> dict[str, Any]:
    """`model` lets a UI say plainly when an offline or test model is answering."""
    model = chat.model
    return {"status": "ok", "model": {"provider": model.provider, "name": model.name}}
