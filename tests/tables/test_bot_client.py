"""The bot client's own rules, without a server: what it sends, in which order, on which socket."""
from __future__ import annotations

import asyncio
import json

from websockets.exceptions import ConnectionClosedError

from bots.client import Bot, TableTally


class FakeSocket:
    def __init__(self, *, closed: bool = False) -> None:
        self.sent: list[str] = []
        self.closed = closed

    async def send(self, raw: str) -> None:
        if self.closed:
            raise ConnectionClosedError(None, None)
        await asyncio.sleep(0)
        self.sent.append(json.loads(raw)["type"])


def seated_bot() -> Bot:
    bot = Bot(url="http://room.invalid", table_id=1, user_id=1, name="alice", cookie="",
              seat=1, tally=TableTally(target=0))
    bot.ws, bot.result.seat = FakeSocket(), 1
    return bot


async def test_messages_leave_in_the_order_they_were_decided_whichever_task_sends():
    """A top-up waiting for its rate slot must not be overtaken by a leave from another task:
    the leave would free the seat and the top-up be refused (`not_seated`)."""
    for _ in range(20):
        bot = seated_bot()
        await bot.send({"type": "act"})  # takes the slot: the next message has to wait
        top_up = asyncio.create_task(bot.send({"type": "top_up", "amount": 80}))
        await asyncio.sleep(0)
        await bot.finish()  # the test or the command telling the bot to leave
        await top_up
        assert bot.ws.sent == ["act", "top_up", "leave"]


async def test_finish_while_the_socket_is_down_leaves_after_reconnecting():
    bot = seated_bot()
    bot.ws = FakeSocket(closed=True)  # the server is restarting
    await bot.finish()  # no exception for the caller ...
    assert bot.leave_wanted and bot.leave_sent_on is None  # ... the session asks once back
