"""Golden files: one hand per case (tests/tables/histories/golden_hands.py), exported as a
player downloads it, byte for byte as in golden/<case>.txt (PokerStars) and golden/<case>.phh.

Each golden file is also read back: the PokerStars text by pokerkit's parser with the room's
additions (``oracle.RoomStarsParser``), the PHH by pokerkit and by
``python -m tables.engine.phh verify``. ``GOLDEN_UPDATE=1`` rewrites the files from the
exporters (then review the diff by eye).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tables.engine import phh
from tables.histories import phh_export, pokerstars
from tests.tables.histories import oracle
from tests.tables.histories.golden_hands import CASES

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"


def exports(case: str) -> dict[str, str]:
    record, viewer = CASES[case]()
    return {".txt": pokerstars.hands_text([record], viewer),
            ".phh": phh_export.hand_text(record, viewer)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_exports_are_the_golden_files(case: str) -> None:
    for suffix, text in exports(case).items():
        path = GOLDEN / f"{case}{suffix}"
        if UPDATE:
            path.write_bytes(text.encode())
        assert path.read_bytes() == text.encode(), f"{path.name} differs (GOLDEN_UPDATE=1)"


def test_every_golden_file_has_its_case() -> None:
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(
        f"{case}{suffix}" for case in CASES for suffix in (".txt", ".phh"))


@pytest.mark.parametrize("case", sorted(CASES))
def test_pokerkit_reads_the_golden_pokerstars_text_to_our_stacks(case: str) -> None:
    record, _viewer = CASES[case]()
    state = record.state
    text = (GOLDEN / f"{case}.txt").read_text()
    [hh] = oracle.stars_hands(text, real=record.real_money)
    assert hh.hand == record.hand_id and hh.variant == {"NL": "NT", "PL": "PT", "FL": "FT"}[
        record.structure]
    behind = hh.user_defined_fields["_stacks_behind"]
    assert [s + b for s, b in zip(hh.starting_stacks, behind, strict=True)] == \
        [state.player(seat).start_stack for seat in hh.seats]
    won = {seat: 0 for seat in hh.seats}
    for pot in state.result["pots"]:
        for seat, share in pot["shares"]:
            won[seat] += share
    assert hh.winnings == [won[seat] for seat in hh.seats]
    assert hh.user_defined_fields["_rake"] == state.result["rake"]
    holes = {record.names[p.seat]: "".join(p.hole) for p in state.players}
    stacks = oracle.stars_final_stacks(oracle.decided(hh, holes))
    ours = [state.player(seat).stack for seat in hh.seats]
    assert oracle.agrees(stacks, ours, state.result["rake"]), (stacks, ours)


@pytest.mark.parametrize("case", sorted(CASES))
def test_pokerkit_and_our_verifier_replay_the_golden_phh(case: str) -> None:
    record, _viewer = CASES[case]()
    text = (GOLDEN / f"{case}.phh").read_text()
    hh = phh.loads(text)
    assert phh.verify_hand(hh) == phh.Verdict("passed")
    [stacks] = oracle.phh_stacks(text)
    assert oracle.agrees(stacks, hh.finishing_stacks, record.state.result["rake"])
    behind = hh.extra.get("_stacks_behind", [0] * len(stacks))
    assert [s + b for s, b in zip(hh.finishing_stacks, behind, strict=True)] == \
        [record.state.player(seat).stack for seat in hh.extra["seats"]]


def test_the_room_verifier_command_passes_every_golden_phh() -> None:
    done = subprocess.run([sys.executable, "-m", "tables.engine.phh", "verify", str(GOLDEN)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{len(CASES)} passed, 0 failed, 0 skipped"
