"""Settings come from the environment, with zero-setup defaults."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"), "port": db.get("PORT"),
    "user": db.get("USER"), "redis": settings.REDIS_URL, "broker": settings.CELERY_BROKER_URL,
    "layer": settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0],
    "debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS, "csrf": settings.CSRF_TRUSTED_ORIGINS,
    "secret": settings.SECRET_KEY,
}))
"""


def settings_with(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in {
        "DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECRET_KEY"}}
    out = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=REPO, capture_output=True, text=True, check=True,
        env={**clean, "DJANGO_SETTINGS_MODULE": "pokerroom.settings", **env},
    )
    return json.loads(out.stdout)


def test_everything_comes_from_the_environment():
    s = settings_with(
        DATABASE_URL="postgres://room:pw@db.internal:5433/poker",
        REDIS_URL="redis://cache.internal:6380/2",
        DEBUG="true",
        ALLOWED_HOSTS="poker.example.com,www.poker.example.com",
        CSRF_TRUSTED_ORIGINS="https://poker.example.com",
        SECRET_KEY="from-the-environment",
    )

    assert s["engine"] == "pokerroom.postgres"  # Django's, with fewer round trips
    assert (s["name"], s["host"], s["port"], s["user"]) == ("poker", "db.internal", 5433, "room")
    assert s["redis"] == s["broker"] == "redis://cache.internal:6380/2"
    # Idle table sockets must stay open: no read timeout on the channel layer's connections.
    assert s["layer"]["address"] == "redis://cache.internal:6380/2"
    assert s["layer"]["socket_timeout"] is None
    assert s["debug"] is True
    assert s["hosts"] == ["poker.example.com", "www.poker.example.com"]
    assert s["csrf"] == ["https://poker.example.com"]
    assert s["secret"] == "from-the-environment"


def test_zero_setup_defaults_are_sqlite_and_a_local_redis():
    s = settings_with()

    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"].endswith("var/db.sqlite3")
    assert s["debug"] is False
    assert s["redis"].startswith("redis://127.0.0.1:")
