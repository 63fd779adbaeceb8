"""Content-Security-Policy (django-csp): every page carries a policy with no inline code and no
eval, and nothing in templates/ or static/js needs either (the browser proof is in
tests/browser/test_csp_browser.py)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

REPO = Path(__file__).resolve().parents[2]
INLINE_CODE = {
    "inline <script>": re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>"),
    "<style> element": re.compile(r"<style\b"),
    "style attribute": re.compile(r"\sstyle\s*="),
    "event-handler attribute": re.compile(r"\son[a-z]+\s*=\s*[\"']"),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["lobby", "accounts:login", "accounts:signup"])
def test_pages_carry_a_policy_without_inline_code_or_eval(client, page):
    policy = client.get(reverse(page))["Content-Security-Policy"]

    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_logged_in_pages_carry_the_policy(client, make_user):
    client.force_login(make_user("alice"))

    for url in (reverse("cashier:home"), reverse("accounts:profile"), reverse("lobby")):
        assert "script-src 'self'" in client.get(url)["Content-Security-Policy"], url


@pytest.mark.parametrize("path", sorted((REPO / "templates").rglob("*.html"))
                         + sorted((REPO / "static" / "js").rglob("*.js")),
                         ids=lambda p: str(p.relative_to(REPO)))
def test_no_template_or_script_needs_inline_code(path):
    text = path.read_text()

    found = [what for what, pattern in INLINE_CODE.items() if pattern.search(text)]

    assert found == [], f"{path.relative_to(REPO)} has {found}: move it to static/ (the CSP refuses it)"


def test_htmx_is_told_not_to_inject_styles_or_eval():
    base = (REPO / "templates" / "_base.html").read_text()

    assert '"includeIndicatorStyles": false' in base
    assert '"allowEval": false' in base
