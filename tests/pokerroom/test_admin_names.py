"""Every model's admin name reads as English: "ledger entries", not "ledger entrys"."""
from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils.text import capfirst

VOWELS = set("aeiou")


def english_plural(noun: str) -> str:
    """The regular English plural of the last word (every model name here is regular)."""
    head, _, last = noun.rpartition(" ")
    if last.endswith("y") and last[-2:-1] not in VOWELS:
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}".strip()


@pytest.mark.parametrize("model", apps.get_models(), ids=lambda m: m._meta.label)
def test_every_model_has_a_correct_plural(model):
    meta = model._meta

    assert meta.verbose_name_plural == english_plural(str(meta.verbose_name))


def test_the_plural_rule_itself():
    assert english_plural("ledger entry") == "ledger entries"
    assert english_plural("hand summary") == "hand summaries"
    assert english_plural("key") == "keys"
    assert english_plural("self-exclusion") == "self-exclusions"
    assert english_plural("access") == "accesses"


@pytest.mark.django_db
def test_the_admin_index_lists_every_model_by_its_plural(client, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:index"))

    listed = {m["object_name"]: m["name"] for app in response.context["app_list"] for m in app["models"]}
    for model in apps.get_models():
        if model.__name__ in listed:
            assert listed[model.__name__] == capfirst(english_plural(str(model._meta.verbose_name)))
    assert listed["HandSummary"] == "Hand summaries"
    assert listed["AccessAttempt"] == "Access attempts"  # the login throttle's, for unlocking
    page = response.content.decode()
    assert "entrys" not in page and "summarys" not in page
