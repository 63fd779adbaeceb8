"""The player pop-up's JSON: a player's name, the viewer's own note and tag on him and the
viewer's statistics of him (GET), saving that note (POST), and the viewer's tags and notes on
the players at a table (GET, a bounded list of ids). Every answer is the logged-in viewer's
own: another player's notes are never read (tables/services/notes.py)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from tables.errors import TableError
from tables.models import NoteTag
from tables.services.hand_stats import stats_of
from tables.services.notes import MAX_IDS, note_json, note_of, note_set, notes_of

NOT_FOUND = {"no_player"}


def _refused(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


def _login_required(request: HttpRequest) -> JsonResponse | None:
    if request.user.is_authenticated:
        return None
    return _refused("login_required", "Log in to keep notes and see statistics.", 401)


@require_GET
def player_card(request: HttpRequest, player_id: int) -> JsonResponse:
    """The pop-up: `name`, `you` (the viewer looks at himself: no note), `note` (the viewer's
    note and tag on him), `stats` (from the hands they were dealt into together), `tags` (the
    palette)."""
    if (refused := _login_required(request)) is not None:
        return refused
    player = get_user_model().objects.filter(pk=player_id, is_active=True).first()
    if player is None:
        return _refused("no_player", f"There is no player {player_id}.", 404)
    you = player.pk == request.user.pk
    return JsonResponse({
        "id": player.pk, "name": player.table_name, "avatar": player.avatar_key, "you": you,
        "note": None if you else note_json(note_of(owner_id=request.user.pk,
                                                   subject_id=player.pk)),
        "stats": stats_of(viewer_id=request.user.pk, subject_id=player.pk).as_dict(),
        "tags": [{"value": value, "label": label} for value, label in NoteTag.choices],
    })


@require_POST
def player_note(request: HttpRequest, player_id: int) -> JsonResponse:
    """Save the viewer's note (`text`) and tag (`tag`, a palette colour or empty) on the
    player: 200 with the note, 400 with the reason, 404 for an unknown player."""
    if (refused := _login_required(request)) is not None:
        return refused
    try:
        note = note_set(owner_id=request.user.pk, subject_id=player_id,
                        tag=request.POST.get("tag", ""), text=request.POST.get("text", ""))
    except TableError as e:
        return _refused(e.code, e.message, 404 if e.code in NOT_FOUND else 400)
    return JsonResponse({"id": player_id, "note": note_json(note)})


@require_GET
def player_notes(request: HttpRequest) -> JsonResponse:
    """The viewer's notes on the players `ids` (comma-separated, at most MAX_IDS):
    {"notes": {"<id>": {"tag", "tag_label", "text"}}}, only those he wrote."""
    if (refused := _login_required(request)) is not None:
        return refused
    raw = [part for part in request.GET.get("ids", "").split(",") if part.strip()]
    if len(raw) > MAX_IDS:
        return _refused("too_many_ids", f"Ask for at most {MAX_IDS} players at once.")
    try:
        ids = [int(part) for part in raw]
    except ValueError:
        return _refused("bad_ids", "Give player ids as whole numbers separated by commas.")
    notes = notes_of(owner_id=request.user.pk, subject_ids=ids)
    return JsonResponse({"notes": {str(pk): note_json(n) for pk, n in notes.items()}})
