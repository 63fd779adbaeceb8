"""Table chat over the socket (docs/protocol.md, "Chat"): a line reaches every viewer as a
versioned event, refusals are answered to the speaker only, mutes are private, and a
reconnecting socket gets the lines it missed."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.services import chat
from tests.tables.ws import Client, seated

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


async def test_a_line_reaches_players_and_spectators_in_order(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    a, b = await seated(play_table, alice, bob)
    watcher = await Client.open(play_table.pk)
    await a.send(type="chat", text="<img src=x onerror=alert(1)>")
    for c in (a, b, watcher):
        await c.until(lambda c=c: bool(c.events("chat")), what="the chat line")
        [line] = c.events("chat")
        assert line["text"] == "<img src=x onerror=alert(1)>" and line["name"] == "alice"
    assert not a.errors()
    for c in (a, b, watcher):
        await c.close()


async def test_refusals_go_to_the_speaker_only(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    walt = await sync_to_async(make_player)("walt")
    a, b = await seated(play_table, alice, bob)
    spectator = await Client.open(play_table.pk, walt)
    anonymous = await Client.open(play_table.pk)
    assert (await anonymous.request(type="chat", text="hi"))["code"] == "login_required"
    assert (await spectator.request(type="chat", text="hi"))["code"] == "chat_players_only"
    assert (await a.request(type="chat", text="   "))["code"] == "chat_empty"
    assert (await a.request(type="chat", text="x" * 201))["code"] == "chat_too_long"
    assert (await a.request(type="chat", text=7))["code"] == "bad_request"
    assert (await a.request(type="mute", player_id=bob.pk, muted="yes"))["code"] == "bad_request"
    assert (await a.request(type="mute", player_id=alice.pk, muted=True))["code"] == "mute_self"
    for n in range(chat.CHAT_RATE_LINES):
        await a.send(type="chat", text=f"line {n}")
    error = await a.request(type="chat", text="one too many", ref="r-1")
    assert error["code"] == "chat_rate_limited" and error["ref"] == "r-1"
    await b.until(lambda: len(b.events("chat")) == chat.CHAT_RATE_LINES, what="five lines")
    await b.drain(0.2)
    assert len(b.events("chat")) == chat.CHAT_RATE_LINES and not b.errors()
    for c in (a, b, spectator, anonymous):
        await c.close()


async def test_mute_is_answered_privately_and_kept_for_the_next_snapshot(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    a, b = await seated(play_table, alice, bob)
    version = b.version
    await a.send(type="mute", player_id=bob.pk, muted=True, ref="m-1")
    await a.until(lambda: any(f["type"] == "mutes" for f in a.frames), what="mutes")
    assert [f for f in a.frames if f["type"] == "mutes"] == [
        {"type": "mutes", "player_ids": [bob.pk],
         "players": [{"player_id": bob.pk, "name": "bob"}], "ref": "m-1"}]
    await b.drain(0.2)
    assert b.version == version and not any(f["type"] == "mutes" for f in b.frames)
    again = await Client.open(play_table.pk, alice)
    assert again.frames[0]["you"]["muted"] == [bob.pk]
    for c in (a, b, again):
        await c.close()


async def test_a_reconnecting_socket_gets_the_lines_it_missed(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    a, b = await seated(play_table, alice, bob)
    await b.drain()
    last = b.version
    await b.close()
    await a.send(type="chat", text="where did bob go?")
    await a.until(lambda: bool(a.events("chat")), what="the line")
    back = await Client.open(play_table.pk, bob, query=f"?last_version={last}")
    back.version = last
    await back.until(lambda: bool(back.events("chat")), what="the missed line")
    assert back.events("chat")[0]["text"] == "where did bob go?"
    fresh = await Client.open(play_table.pk, bob)
    assert [line["text"] for line in fresh.frames[0]["chat"]] == ["where did bob go?"]
    for c in (a, back, fresh):
        await c.close()
