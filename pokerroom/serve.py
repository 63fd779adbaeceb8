"""daphne, with two options its command line lacks:

* a WebSocket that breaks the protocol or sends a frame above `--websocket-max-frame-size`
  is closed with a close frame naming the reason (1009 "message too big", ...), not by dropping
  the TCP connection (autobahn's default, `failByDrop`), so the client can tell the user what
  happened;
* TCP endpoints listen with a backlog of `BACKLOG` connections (Twisted's default is 50): when
  hundreds of players connect at once — a restart, a network blip — connections beyond a
  50-deep queue wait for the kernel to retry or are refused.

    python -m pokerroom.serve [daphne's arguments]

Uses daphne's extension point for this (`CommandLineInterface.server_class`, and its
`endpoints` argument), Twisted's endpoint syntax and autobahn's public `setProtocolOptions`."""
from __future__ import annotations

from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor

BACKLOG = 1024


def with_backlog(endpoint: str) -> str:
    """A Twisted TCP endpoint string with a listen backlog (unless it names one)."""
    if endpoint.startswith("tcp:") and ":backlog=" not in endpoint:
        return f"{endpoint}:backlog={BACKLOG}"
    return endpoint


class CleanClosingServer(Server):
    def __init__(self, application: Any, endpoints: list[str] | None = None,
                 **options: Any) -> None:
        super().__init__(application, endpoints=[with_backlog(e) for e in endpoints or []],
                         **options)

    def run(self) -> None:
        reactor.callWhenRunning(self.close_cleanly)
        super().run()

    def close_cleanly(self) -> None:
        self.ws_factory.setProtocolOptions(failByDrop=False)


class RoomServerCommand(CommandLineInterface):
    server_class = CleanClosingServer


if __name__ == "__main__":
    RoomServerCommand.entrypoint()
