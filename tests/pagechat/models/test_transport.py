import gzip
import types
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from anthropic import DefaultAioHttpClient

from pagechat.models._transport import body_chunks

BODY = b"event: a\ndata: one\n\n" * 50


@pytest.fixture
async def server() -> AsyncIterator[TestServer]:
    async def plain(request: web.Request) -> web.Response:
        return web.Response(body=BODY, content_type="text/event-stream")

    async def zipped(request: web.Request) -> web.Response:
        response = web.Response(body=gzip.compress(BODY), content_type="text/event-stream")
        response.headers["Content-Encoding"] = "gzip"
        return response

    app = web.Application()
    app.router.add_get("/plain", plain)
    app.router.add_get("/gzip", zipped)
    test_server = TestServer(app)
    await test_server.start_server()
    yield test_server
    await test_server.close()


@pytest.mark.parametrize("path", ["/plain", "/gzip"])
async def test_the_body_reads_the_same_whether_or_not_it_is_encoded(
    server: TestServer, path: str
) -> None:
    async with DefaultAioHttpClient() as client:
        async with client.stream("GET", str(server.make_url(path))) as response:
            body = b"".join([chunk async for chunk in body_chunks(response)])
    assert body == BODY


async def test_an_unencoded_body_is_read_from_aiohttp_directly(server: TestServer) -> None:
    # Regression: httpx2 wraps the transport's stream, so the direct read was never taken.
    async with DefaultAioHttpClient() as client:
        async with client.stream("GET", str(server.make_url("/plain"))) as response:
            chunks = body_chunks(response)
            assert isinstance(chunks, types.AsyncGeneratorType)
            assert chunks.ag_code.co_name == "_aiohttp_chunks"
            assert b"".join([chunk async for chunk in chunks]) == BODY
