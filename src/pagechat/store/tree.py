"""A conversation's messages as a tree: the active path and each message's siblings.

Pure functions over `Node`s given in insertion order (a parent always comes before its
children), shared by the SQL and in-memory stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Node", "Siblings", "active_path", "newest_leaf", "sibling_at", "siblings"]


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    parent_id: str | None


@dataclass(frozen=True, slots=True)
class Siblings:
    count: int
    position: int
    """1-based, in the order the siblings were written."""


def active_path(nodes: Sequence[Node], leaf_id: str | None) -> list[str]:
    """The ids from the root to `leaf_id`, root first (empty for no leaf)."""
    parents = {n.id: n.parent_id for n in nodes}
    path: list[str] = []
    current = leaf_id
    while current is not None and current in parents and len(path) <= len(parents):
        path.append(current)
        current = parents[current]
    path.reverse()
    return path


def siblings(nodes: Sequence[Node]) -> dict[str, Siblings]:
    """Each message's place among the messages that share its parent."""
    groups: dict[str | None, list[str]] = {}
    for node in nodes:
        groups.setdefault(node.parent_id, []).append(node.id)
    return {
        member: Siblings(len(group), position)
        for group in groups.values()
        for position, member in enumerate(group, start=1)
    }


def sibling_at(nodes: Sequence[Node], message_id: str, position: int) -> str | None:
    """The id of `message_id`'s sibling at `position` (1-based), or None."""
    parent = next((n.parent_id for n in nodes if n.id == message_id), None)
    group = [n.id for n in nodes if n.parent_id == parent]
    if message_id not in group or not 1 <= position <= len(group):
        return None
    return group[position - 1]


def newest_leaf(nodes: Sequence[Node], start_id: str) -> str:
    """Down from `start_id`, always to the newest child: where a switched-to branch ends."""
    newest_child: dict[str, str] = {}
    for node in nodes:  # later nodes are newer, so the last one written wins
        if node.parent_id is not None:
            newest_child[node.parent_id] = node.id
    current = start_id
    while current in newest_child:
        current = newest_child[current]
    return current
