"""`X-Room-Server: <ROOM_SERVER_NAME>` on every HTTP response, so an operator (or the routing
test) sees which daphne behind nginx answered. Left out of the chain when the name is unset."""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

HEADER = "X-Room-Server"


@sync_and_async_middleware
def room_server_header(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    """Both sync and async, so it never costs daphne a thread hop."""
    name = settings.ROOM_SERVER_NAME
    if not name:
        raise MiddlewareNotUsed

    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            response = await get_response(request)  # type: ignore[misc]
            response[HEADER] = name
            return response
    else:
        def middleware(request: HttpRequest) -> HttpResponse:  # type: ignore[misc]
            response = get_response(request)
            response[HEADER] = name  # type: ignore[index]
            return response
    return middleware
