"""daphne, with one option its command line lacks: a WebSocket that breaks the protocol or
sends a message above `--websocket-max-message-size` is closed with a close frame naming the
reason (1009 "message too big", ...), not by dropping the TCP connection (autobahn's default,
`failByDrop`), so the client can tell the user what happened.

    python -m pokerroom.serve [daphne's arguments]

Uses daphne's extension point for this (`CommandLineInterface.server_class`) and autobahn's
public `setProtocolOptions`."""
from __future__ import annotations

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor


class CleanClosingServer(Server):
    def run(self) -> None:
        reactor.callWhenRunning(self.close_cleanly)
        super().run()

    def close_cleanly(self) -> None:
        self.ws_factory.setProtocolOptions(failByDrop=False)


class RoomServerCommand(CommandLineInterface):
    server_class = CleanClosingServer


if __name__ == "__main__":
    RoomServerCommand.entrypoint()
