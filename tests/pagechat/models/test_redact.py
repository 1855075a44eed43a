"""An API key leaks in many forms; none of them survives `redact`."""

from __future__ import annotations

import base64
import io
import logging
import random

import pytest

from pagechat.models.redact import REDACTED, RedactingFilter, RedactingFormatter, redact
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


def test_pieces_of_the_key_anywhere_in_a_long_line_are_all_removed() -> None:
    # Overlapping and touching pieces, far into a 16 KB request line: the RE2 pass that
    # tells a line without any piece must still send every line with one to the full scan.
    rng = random.Random(7)
    filler = [rng.choice("abcdefXYZ019/-?&=") * rng.randint(1, 400) for _ in range(60)]
    pieces = [KEY[i : i + rng.randint(6, 14)] for i in rng.sample(range(len(KEY) - 14), 20)]
    line = "GET /api/health?q=" + "".join(f + p for f, p in zip(filler, pieces, strict=False))

    text = redact(line, [KEY])

    assert all(KEY[n : n + 6] not in text for n in range(len(KEY) - 5))
    assert text.count(REDACTED) >= 1 and text.startswith("GET /api/health?q=")


def test_text_without_keys_is_left_alone() -> None:
    message = "messages: at most 100,000 tokens; you sent 120,000 (skip some history)"

    assert redact(message, [KEY]) == message


def test_a_log_handler_with_the_filter_never_writes_the_key() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactingFilter([KEY]))
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("the provider said: %s", f"bad key {KEY}")
        try:
            raise RuntimeError(f"auth failed for {KEY[:20]}")
        except RuntimeError:
            logger.exception("call failed")
    finally:
        logger.removeHandler(handler)

    written = out.getvalue()
    assert "the provider said" in written and "RuntimeError" in written
    for n in range(len(KEY) - 6):
        assert KEY[n : n + 6] not in written


def test_uvicorns_access_formatter_writes_a_redacted_line_for_a_key_in_the_query() -> None:
    from uvicorn.logging import AccessFormatter

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    access = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s')
    handler.addFilter(RedactingFilter([KEY]))
    handler.setFormatter(RedactingFormatter(access, [KEY]))
    logger = logging.getLogger("test.redaction.access")
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        args = ("127.0.0.1:5000", "GET", f"/api/health?k={KEY[4:16]}", "1.1", 200)
        logger.info('%s - "%s %s HTTP/%s" %d', *args)
        logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5001", "GET", "/x/Bearer", "1.1", 404)
    finally:
        logger.removeHandler(handler)

    lines = out.getvalue().splitlines()
    assert lines[0] == '127.0.0.1:5000 - "GET /api/health?k=[redacted] HTTP/1.1" 200 OK'
    # A bearer-shaped stretch made across the arguments' edges is caught on the way out.
    assert lines[1] == '127.0.0.1:5001 - "GET /x/[redacted]" 404 Not Found'


def test_a_key_in_a_non_string_argument_is_redacted_in_the_written_line() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactingFilter([KEY]))
    handler.setFormatter(RedactingFormatter(logging.Formatter("%(message)s"), [KEY]))
    logger = logging.getLogger("test.redaction.objects")
    logger.addHandler(handler)
    try:
        logger.warning("failed: %s", RuntimeError(f"bad key {KEY}"))
    finally:
        logger.removeHandler(handler)

    assert out.getvalue() == "failed: bad key [redacted]\n"
