"""Table chat in the browser: two players talk; a line that looks like HTML is shown as the
characters typed; one mutes the other and no longer sees his lines (also after a reload); a
reconnecting page shows the recent lines; the dealer writes who won what; a refused line says
why."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, log_in, open_table, shot, wait_my_turn
from tests.browser.test_table_browser import seated_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ATTACK = "<img src=x onerror=alert(1)>"


def say(page: Page, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def lines(page: Page):
    return page.locator("#chat-lines .chat-line")


def has_line(page: Page, text: str) -> None:
    """Wait until the page's state holds a chat line with `text` (shown or not)."""
    page.wait_for_function(
        "(text) => (window.pokerTable.state?.chat || []).some((l) => l.text === text)",
        arg=text, timeout=TIMEOUT)


def test_two_players_chat_mute_and_reconnect(room_url, new_page, make_user, make_table):
    table = make_table(name="Chatty", structure="NL", lower_stake=2, hand_pause_seconds=1,
                       action_seconds=30)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    dialogs: list[str] = []
    for page in (alice, bob):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    # They talk: Enter sends, the line reaches both pages, the input is emptied.
    say(alice, "good luck bob")
    expect(lines(bob)).to_contain_text(["good luck bob"], timeout=TIMEOUT)
    expect(alice.locator("#chat-input")).to_have_value("")
    say(bob, "you too")
    expect(lines(alice)).to_contain_text(["good luck bob", "you too"], timeout=TIMEOUT)

    # An HTML injection attempt is shown as the characters typed: no element is made of it.
    say(alice, ATTACK)
    expect(lines(bob).last).to_contain_text(ATTACK, timeout=TIMEOUT)
    expect(lines(bob).last.locator(".chat-text")).to_have_text(ATTACK)
    assert bob.locator("#chat-panel img").count() == 0
    assert alice.locator("#chat-panel img").count() == 0
    assert dialogs == []

    # Bob mutes alice: her lines go from his page, and her new ones never show.
    bob.locator("#chat-lines button.chat-author", has_text="alice").first.click()
    bob.locator("#chat-mute-toggle").click()
    expect(bob.locator("#chat-muted")).to_contain_text("Unmute alice", timeout=TIMEOUT)
    expect(lines(bob)).to_have_count(1)
    expect(bob.locator("#chat-lines .chat-text")).to_have_text(["you too"])
    say(alice, "can you hear me?")
    has_line(bob, "can you hear me?")  # it arrived…
    expect(lines(bob)).to_have_count(1)  # …and is not shown
    expect(lines(alice)).to_have_count(4)  # alice sees everything
    shot(bob, "table-chat-muted")

    # A reloaded page shows the recent lines (alice's), and remembers the mute (bob's).
    alice.reload()
    expect(alice.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(lines(alice)).to_contain_text(["good luck bob", "you too", ATTACK, "can you hear me?"])
    bob.reload()
    expect(bob.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(bob.locator("#chat-muted")).to_contain_text("Unmute alice")
    expect(bob.locator("#chat-lines .chat-text")).to_have_text(["you too"])
    bob.get_by_role("button", name="Unmute alice").click()
    expect(lines(bob)).to_have_count(4, timeout=TIMEOUT)
    assert dialogs == []

    # The dealer writes who won what (alice, first to act heads-up, folds).
    wait_my_turn(alice)
    alice.locator("#act-fold").click()
    dealer = bob.locator("#chat-lines .chat-line.dealer")
    expect(dealer).to_contain_text("bob wins", timeout=TIMEOUT)
    bob.locator("#toggle-dealer").click()  # the option turns them off
    expect(dealer).to_have_count(0)
    expect(alice.locator("#chat-lines .chat-line.dealer")).to_contain_text("bob wins")

    # A refused line is said in the panel and given back to retype (5 lines in 10 s, so the
    # fifth or sixth here, as "you too" may still count). Each line goes once the last one is
    # answered: typing while a refused line comes back would type into it.
    slow_down = bob.locator("#chat-error", has_text="Slow down")
    for n in range(6):
        say(bob, f"spam {n}")
        expect(lines(bob).filter(has_text=f"spam {n}").or_(slow_down)).to_be_visible(
            timeout=TIMEOUT)
        if slow_down.is_visible():
            break
    expect(slow_down).to_be_visible()
    assert slow_down.inner_text().count("Slow down") == 1  # said once, not twice
    expect(bob.locator("#chat-input")).to_have_value(f"spam {n}")
    expect(lines(bob).filter(has_text=f"spam {n}")).to_have_count(0)


def test_the_mute_list_names_a_player_who_is_not_at_the_table(room_url, new_page, make_user,
                                                               make_table):
    """Carl was muted elsewhere: he sits nowhere here and said nothing, yet the list names him."""
    from tables.models import ChatMute

    table = make_table(name="Named", structure="NL", lower_stake=2)
    walt, carl = make_user("walt"), make_user("carl")
    ChatMute.objects.create(muter=walt, muted=carl)
    page = new_page("walt")
    log_in(page, room_url, "walt")
    open_table(page, room_url, table.pk)
    expect(page.locator("#chat-muted")).to_contain_text("Unmute carl", timeout=TIMEOUT)
    expect(page.locator("#chat-muted")).not_to_contain_text("player #")
    page.get_by_role("button", name="Unmute carl").click()
    expect(page.locator("#chat-muted")).to_be_hidden(timeout=TIMEOUT)
    assert not ChatMute.objects.filter(muter=walt).exists()


def test_a_spectator_may_not_chat_unless_the_table_allows(room_url, new_page, make_user,
                                                           make_table):
    table = make_table(name="Quiet", structure="NL", lower_stake=2)
    make_user("walt")
    page = new_page("walt")
    log_in(page, room_url, "walt")
    open_table(page, room_url, table.pk)
    expect(page.locator("#chat-note")).to_contain_text("Only the players")
    expect(page.locator("#chat-input")).to_be_disabled()
    table.chat_spectators = True
    table.save()
    open_table(page, room_url, table.pk)
    say(page, "hello from the rail")
    expect(lines(page)).to_contain_text(["hello from the rail"], timeout=TIMEOUT)
