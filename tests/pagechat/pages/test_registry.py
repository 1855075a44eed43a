from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from pagechat.pages import (
    PayloadConfig,
    ServerAction,
    UnknownPage,
    clear_pages,
    get_page,
    get_server_action,
    load_pages,
    page_in,
    register_page,
)


def _apply(data: dict[str, Any], context: Any) -> str:
    return "applied"


def test_a_registered_page_is_found_by_name() -> None:
    config = register_page("reports", instructions="You know reports.")
    assert get_page("reports") is config


def test_no_page_gets_the_page_less_default_config() -> None:
    for page in (get_page(None), get_page("")):
        assert page.page == "" and page.payloads == () and page.tools == ()
        assert page.context_budget == 8000
        assert [a.action for a in page.all_client_actions()] == ["close_chat"]


def test_a_page_nobody_registered_is_an_error_naming_the_known_pages() -> None:
    register_page("reports")
    register_page("edit")
    with pytest.raises(UnknownPage) as raised:
        get_page("report")
    assert raised.value.known == ("edit", "reports")
    assert str(raised.value) == "Unknown page 'report'; known pages: edit, reports"


def test_a_page_name_that_is_not_text_is_an_unknown_page() -> None:
    register_page("reports")
    with pytest.raises(UnknownPage, match="known pages: reports"):
        page_in({"current_page": 42})
    assert page_in({"current_page": None}).page == ""
    assert page_in({}).page == ""


def test_registering_a_page_again_replaces_it() -> None:
    register_page("reports", instructions="old")
    register_page("reports", instructions="new")
    assert get_page("reports").instructions == "new"


def test_a_page_needs_a_name() -> None:
    with pytest.raises(ValueError):
        register_page("")


def test_server_actions_are_found_per_page() -> None:
    action = ServerAction("apply_schema", "Apply it", _apply)
    register_page("edit", server_actions=[action])
    assert get_server_action("edit", "apply_schema") is action
    assert get_server_action("edit", "other") is None
    assert get_server_action(None, "apply_schema") is None
    with pytest.raises(UnknownPage):
        get_server_action("reports", "apply_schema")


def test_clear_pages_forgets_every_page() -> None:
    register_page("reports", instructions="x")
    clear_pages()
    with pytest.raises(UnknownPage):
        get_page("reports")


def test_load_pages_imports_the_modules_that_register_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pagechat_test_pages_a.py").write_text(
        "from pagechat.pages import register_page\nregister_page('a', instructions='A')\n"
    )
    (tmp_path / "pagechat_test_pages_b.py").write_text(
        "from pagechat.pages import register_page\nregister_page('b', instructions='B')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("pagechat_test_pages_a", "pagechat_test_pages_b"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    load_pages(["pagechat_test_pages_a", "pagechat_test_pages_b"])
    assert (get_page("a").instructions, get_page("b").instructions) == ("A", "B")


def test_load_pages_fails_loudly_on_a_missing_module() -> None:
    with pytest.raises(ModuleNotFoundError):
        load_pages(["pagechat_no_such_page_module"])


def test_a_payload_is_accepted_by_one_of_its_pages_server_actions() -> None:
    save = ServerAction("save", "Save it.", _apply)
    config = register_page(
        "recipes",
        payloads=[
            PayloadConfig(
                type="recipe",
                parse_marker="RECIPE:",
                llm_instructions="Propose one.",
                accept_action="save",
            )
        ],
        server_actions=[save],
    )
    assert config.payloads[0].accept_action == "save"


def test_an_accept_action_the_page_does_not_have_is_refused_at_registration() -> None:
    with pytest.raises(
        ValueError, match="'recipe' is accepted by 'save', which is not one of its server actions"
    ):
        register_page(
            "recipes",
            payloads=[
                PayloadConfig(
                    type="recipe",
                    parse_marker="RECIPE:",
                    llm_instructions="Propose one.",
                    accept_action="save",
                )
            ],
            server_actions=[ServerAction("other", "Something else.", _apply)],
        )
    with pytest.raises(UnknownPage):
        get_page("recipes")


def test_an_empty_accept_action_is_refused() -> None:
    with pytest.raises(ValueError, match="accept_action must not be empty"):
        PayloadConfig(
            type="recipe", parse_marker="RECIPE:", llm_instructions="Propose one.", accept_action=""
        )
