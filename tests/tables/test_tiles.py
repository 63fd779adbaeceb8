"""The tiles window, `/tables/tile/?t=ID&t=ID`: one to four distinct open tables, each framing
its compact table page `/tables/<id>/tile/` — the only page another page of the room may
frame; every other page refuses any frame."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import Seat

pytestmark = pytest.mark.django_db

TILES = reverse("tables:tiles")


def frames(page: str) -> list[str]:
    return re.findall(r'<iframe class="tile-frame" src="([^"]+)"', page)


def test_two_tables_become_two_tiles_in_the_order_given(client, make_table):
    oak, elm = make_table(name="Oak"), make_table(name="Elm")

    answer = client.get(f"{TILES}?t={elm.pk}&t={oak.pk}")

    assert answer.status_code == 200
    assert frames(answer.content.decode()) == [f"/tables/{elm.pk}/tile/", f"/tables/{oak.pk}/tile/"]
    assert "<title>Tiles: Elm · Oak · Poker Room</title>" in answer.content.decode()


@pytest.mark.parametrize(("query", "reason"), [
    ("", "Name the tables to tile"),
    ("?t=abc", "Table ids are numbers"),
    ("?t={a}&t={a}", "Each table can be tiled once."),
    ("?t={a}&t={b}&t={c}&t={d}&t={e}", "At most 4 tables fit in one window"),
    ("?t={a}&t=999", "No open table #999."),
    ("?t={closed}", "No open table #{closed}."),
])
def test_bad_tiles_are_refused_with_400_and_the_reason(client, make_table, query, reason):
    ids = {k: make_table().pk for k in "abcde"}
    ids["closed"] = make_table(is_active=False).pk

    answer = client.get(TILES + query.format(**ids))

    assert answer.status_code == 400
    assert reason.format(**ids) in answer.content.decode()
    assert frames(answer.content.decode()) == []


def test_four_tables_fit_and_the_add_form_is_gone(client, make_table):
    ids = [make_table().pk for _ in range(5)]
    four = client.get(TILES + "?" + "&".join(f"t={i}" for i in ids[:4])).content.decode()
    three = client.get(TILES + "?" + "&".join(f"t={i}" for i in ids[:3])).content.decode()

    assert len(frames(four)) == 4 and "tiles-add-table" not in four
    assert 'id="tiles-add-table"' in three and f'value="{ids[4]}"' in three


def test_add_to_tiles_joins_the_last_tiles_and_stops_at_four(client, make_table):
    ids = [make_table().pk for _ in range(5)]
    client.get(f"{TILES}?t={ids[0]}&t={ids[1]}")

    added = client.get(f"{TILES}?add={ids[2]}")
    again = client.get(f"{TILES}?add={ids[2]}")  # already there: the same tiles

    assert added.status_code == again.status_code == 302
    assert added["Location"] == f"{TILES}?t={ids[0]}&t={ids[1]}&t={ids[2]}"
    assert again["Location"] == added["Location"]
    client.get(added["Location"])
    client.get(f"{TILES}?add={ids[3]}")
    client.get(f"{TILES}?t={ids[0]}&t={ids[1]}&t={ids[2]}&t={ids[3]}")
    full = client.get(f"{TILES}?add={ids[4]}")
    assert full.status_code == 400 and "At most 4 tables" in full.content.decode()
    assert client.get(f"{TILES}?add=999").status_code == 400


def test_the_tile_is_the_compact_table_page_and_only_it_may_be_framed_by_the_room(
        client, make_table):
    table = make_table(name="Oak")

    tile = client.get(reverse("tables:tile", args=[table.pk]))
    page = client.get(reverse("tables:table", args=[table.pk]))
    window = client.get(f"{TILES}?t={table.pk}")

    assert tile["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in tile["Content-Security-Policy"]
    assert "script-src 'self'" in tile["Content-Security-Policy"]
    text = tile.content.decode()
    assert '<base target="_top">' in text and 'data-compact="1"' in text
    assert "live-table compact" in text and 'id="add-to-tiles"' not in text
    for other in (page, window, client.get(reverse("lobby"))):
        assert other["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in other["Content-Security-Policy"]
    assert '<base target' not in page.content.decode()
    assert f'href="{TILES}?add={table.pk}"' in page.content.decode()
    assert client.get(reverse("tables:tile", args=[999])).status_code == 404


def test_the_window_carries_the_player_s_keys(client, make_user, make_table):
    ann = make_user("ann")
    ann.hotkeys = {"fold": "q", "check_call": "w", "bet_raise": "e", "min": "1",
                   "half_pot": "2", "pot": "3", "all_in": "4"}
    ann.save()
    client.force_login(ann)
    page = client.get(f"{TILES}?t={make_table().pk}").content.decode()
    assert 'data-hotkeys="{&quot;fold&quot;:&quot;q&quot;' in page


def test_the_lobby_offers_tiling_each_table_and_the_tables_one_sits_at(client, make_user,
                                                                        make_table):
    ann = make_user("ann")
    oak, elm, _ = make_table(name="Oak"), make_table(name="Elm"), make_table(name="Ash")
    for table, number in ((elm, 1), (oak, 2)):
        Seat.objects.create(table=table, player=ann, number=number, chips=100)
    client.force_login(ann)

    lobby = client.get(reverse("lobby")).content.decode()

    assert f'href="{TILES}?add={oak.pk}" aria-label="Add Oak to tiles"' in lobby
    assert f'href="{TILES}?t={oak.pk}&amp;t={elm.pk}">Open my 2 tables tiled</a>' in lobby
