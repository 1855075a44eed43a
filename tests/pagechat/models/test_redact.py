"""An API key leaks in many forms; none of them survives `redact`."""

from __future__ import annotations

import base64

import pytest

from pagechat.models.redact import REDACTED, redact
from tests.support.secrets import leaks

KEY = "sk-ant-api03-Zq8vN2xT7pLm4RkW9yBc1DfGh5JsKa6E"


@pytest.mark.parametrize("form", list(leaks(KEY)))
def test_no_form_of_the_key_survives(form: str) -> None:
    text = redact(leaks(KEY)[form], [KEY])

    assert REDACTED in text
    for n in range(0, len(KEY) - 6):
        assert KEY[n : n + 6] not in text
    assert base64.b64encode(KEY.encode()).decode()[:8] not in text


def test_a_key_shaped_token_is_removed_even_when_it_is_not_ours() -> None:
    text = redact("upstream said: invalid key sk-proj-AbCdEfGh12345678 and sk-***abcd")

    assert "AbCdEfGh" not in text and "abcd" not in text


def test_text_without_keys_is_left_alone() -> None:
    message = "messages: at most 100,000 tokens; you sent 120,000 (skip some history)"

    assert redact(message, [KEY]) == message
