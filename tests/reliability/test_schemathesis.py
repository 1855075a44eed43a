"""Schemathesis against the app's own OpenAPI schema: no operation answers 5xx.

Stateless fuzzing of every operation in `app.openapi()` — valid and invalid inputs —
sent with a real token (from a real login) to the app `pagechat serve` builds, served
from a thread. The streaming routes are fuzzed like the others: the model answers at
once, so a 200 stream ends by itself, and every request has a timeout besides.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from pagechat.models import FunctionModel
from pagechat.server.app import create_app_from_settings
from pagechat.settings import Settings
from tests.conftest import TEST_SECRET
from tests.reliability.conftest import Threaded

MAX_EXAMPLES = 25
"""Per operation and phase: the whole file runs in well under a minute on two cores."""


def _openapi() -> dict[str, Any]:
    # Building the app touches no database and no file; the schema is all that is used.
    settings = Settings.model_validate(
        {"DATABASE_URL": "sqlite+aiosqlite:///:memory:", "PAGECHAT_SECRET": TEST_SECRET}
    )
    openapi: dict[str, Any] = create_app_from_settings(
        settings, model=FunctionModel(lambda _request: "OK")
    ).openapi()
    return openapi


OPENAPI = _openapi()

schema = schemathesis.openapi.from_dict(
    OPENAPI,
    config=schemathesis.Config.from_dict(
        {
            "seed": 20_240_601,
            "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
            "request-timeout": 10,
            "generation": {
                "mode": "all",
                "max-examples": MAX_EXAMPLES,
                "deterministic": True,
                "with-security-parameters": False,
            },
            "phases": {"stateful": {"enabled": False}},
        }
    ),
)


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_no_operation_answers_a_server_error(case: Any, threaded: Threaded) -> None:
    assert threaded.app.openapi() == OPENAPI  # the schema fuzzed is the one served
    case.call_and_validate(
        base_url=threaded.base, headers=threaded.headers, timeout=10, checks=[not_a_server_error]
    )
