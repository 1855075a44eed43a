from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from horizon.payloads import (
    ALL_SHAPES,
    PAYLOAD_MODELS,
    PUBMED_ARTICLE_SCHEMA,
    PUBMED_SEARCH_RESULTS_SCHEMA,
    SCHEMA_PROPOSAL,
    PayloadShape,
)
from pagechat.tools import schema_error


@pytest.mark.parametrize("shape", ALL_SHAPES, ids=lambda s: s.type)
def test_each_example_satisfies_its_schema(shape: PayloadShape) -> None:
    assert schema_error(shape.schema, shape.example) is None


def test_shapes_have_distinct_types_and_markers() -> None:
    assert len({s.type for s in ALL_SHAPES}) == len({s.marker for s in ALL_SHAPES}) == 9


def test_a_line_is_the_marker_and_one_line_of_json() -> None:
    line = SCHEMA_PROPOSAL.line({"reasoning": "é\nx"})
    assert line == 'SCHEMA_PROPOSAL: {"reasoning": "é\\nx"}'
    assert json.loads(line.removeprefix("SCHEMA_PROPOSAL: ")) == {"reasoning": "é\nx"}


@pytest.mark.parametrize(
    ("changes", "ok"),
    [
        ({"stream_name": "X"}, True),
        ({"topics": [{"name": "A"}], "entities": [{"name": "B", "type": "drug"}]}, True),
        ({}, False),
        ({"topics": []}, False),
        ({"entities": [{"name": "B", "type": "pill"}]}, False),
        ({"stream_name": "X", "colour": "red"}, False),
    ],
)
def test_a_schema_proposal_changes_only_known_fields(changes: dict[str, object], ok: bool) -> None:
    data = {"proposed_changes": changes, "confidence": "low", "reasoning": "r"}
    assert (schema_error(SCHEMA_PROPOSAL.schema, data) is None) is ok


def test_tool_payload_schemas_accept_an_article_and_search_results() -> None:
    article = {"pmid": "1", "title": "T", "authors": ["A B"], "year": None, "doi": None}
    jsonschema.validate({**article, "abstract": ""}, PUBMED_ARTICLE_SCHEMA)
    jsonschema.validate(
        {"query": "q", "total": 1, "articles": [article]}, PUBMED_SEARCH_RESULTS_SCHEMA
    )
    assert schema_error(PUBMED_ARTICLE_SCHEMA, {"pmid": "1"}) is not None


@pytest.mark.parametrize("shape", ALL_SHAPES, ids=lambda s: s.type)
def test_each_example_is_valid_for_its_pydantic_model(shape: PayloadShape) -> None:
    shape.model.model_validate(shape.example)


def test_the_web_payload_types_are_generated_from_every_payload_model() -> None:
    config = json.loads((Path(__file__).parents[2] / "web/payload-types.json").read_text())
    (horizon,) = [app for app in config["apps"] if app["module"] == "horizon.payloads"]
    assert horizon["payloads"] == {t: m.__name__ for t, m in PAYLOAD_MODELS.items()}
