"""Settings come from the environment, with zero-setup defaults."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"), "port": db.get("PORT"),
    "user": db.get("USER"), "redis": settings.REDIS_URL, "broker": settings.CELERY_BROKER_URL,
    "debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS, "csrf": settings.CSRF_TRUSTED_ORIGINS,
    "conn_max_age": db.get("CONN_MAX_AGE"),
    "pool": db.get("OPTIONS", {}).get("pool"),
    "secret": settings.SECRET_KEY, "room_env": settings.ROOM_ENV,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT, "hsts": settings.SECURE_HSTS_SECONDS,
    "session_secure": settings.SESSION_COOKIE_SECURE, "csrf_secure": settings.CSRF_COOKIE_SECURE,
    "proxy_ssl_header": settings.SECURE_PROXY_SSL_HEADER,
    "login_limit": settings.LOGIN_FAILURE_LIMIT,
    "address_login_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
    "signups": settings.SIGNUPS_PER_ADDRESS_PER_DAY,
    "login_cooloff": settings.AXES_COOLOFF_TIME.total_seconds(),
    "queue": settings.CELERY_TASK_DEFAULT_QUEUE, "control": settings.CELERY_CONTROL_EXCHANGE,
    "channel_prefix": settings.ROOM_CHANNEL_PREFIX,
}))
"""

# Variables of the machine running the tests that must not leak into a settings subprocess.
ROOM_VARIABLES = {
    "DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECRET_KEY",
    "ROOM_ENV", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER", "SECURE_REDIRECT_EXEMPT", "LOGIN_FAILURE_LIMIT",
    "LOGIN_COOLOFF_MINUTES", "LOGIN_ADDRESS_FAILURE_LIMIT", "SIGNUPS_PER_ADDRESS_PER_DAY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by tests/browser/conftest.py for the whole test run
    "ROOM_NAMESPACE", "CELERY_QUEUE", "CHANNEL_LAYER_PREFIX", "ROOM_HOST",
    "PYTEST_XDIST_WORKER",  # set by pytest-xdist in each of its worker processes
}
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k7Qm2vX9pL4wR8tY1zN6bH3jF5dS0aG7cE2uI9oP4yT8rW1qZ6xV3nM5",
    "ALLOWED_HOSTS": "poker.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://poker.example.com",
    "DATABASE_URL": "postgres://room:pw@db.internal:5432/poker",
    "REDIS_URL": "redis://cache.internal:6379/0",
}


def room_environment(**env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in ROOM_VARIABLES}
    return {**clean, "DJANGO_SETTINGS_MODULE": "pokerroom.settings", **env}


def settings_with(**env: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=REPO, capture_output=True, text=True, check=True,
        env=room_environment(**env),
    )
    return json.loads(out.stdout)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, capture_output=True,
                          text=True, env=room_environment(**env))


def test_everything_comes_from_the_environment():
    s = settings_with(
        DATABASE_URL="postgres://room:pw@db.internal:5433/poker",
        REDIS_URL="redis://cache.internal:6380/2",
        DEBUG="true",
        ALLOWED_HOSTS="poker.example.com,www.poker.example.com",
        CSRF_TRUSTED_ORIGINS="https://poker.example.com",
        SECRET_KEY="from-the-environment",
    )

    assert s["engine"] == "django.db.backends.postgresql"
    assert s["conn_max_age"] == 0 and s["pool"]["max_size"] == 10  # bounded: a pool per process
    assert (s["name"], s["host"], s["port"], s["user"]) == ("poker", "db.internal", 5433, "room")
    assert s["redis"] == s["broker"] == "redis://cache.internal:6380/2"
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


def test_rooms_sharing_a_redis_keep_apart_and_so_do_test_processes():
    plain = settings_with()
    assert (plain["queue"], plain["control"], plain["channel_prefix"]) == ("celery", "celery", "room")

    room = settings_with(ROOM_NAMESPACE="blue")
    assert room["queue"] == room["control"] == room["channel_prefix"] == "blue"

    # pytest-xdist's workers of one test run: the same ROOM_NAMESPACE, each its own queue
    # (their Celery workers use different test databases) and its own broadcast channels.
    gw0 = settings_with(ROOM_NAMESPACE="test42", PYTEST_XDIST_WORKER="gw0")
    gw1 = settings_with(ROOM_NAMESPACE="test42", PYTEST_XDIST_WORKER="gw1")
    assert gw0["queue"] == gw0["control"] == gw0["channel_prefix"] == "test42gw0"
    assert gw1["queue"] == gw1["control"] == gw1["channel_prefix"] == "test42gw1"


def test_a_production_environment_passes_the_deployment_checklist():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_is_https_only_with_hsts_and_secure_cookies():
    s = settings_with(**PRODUCTION)

    assert s["room_env"] == "production"  # a SECRET_KEY of its own makes it production
    assert s["ssl_redirect"] is True
    assert s["hsts"] == 365 * 24 * 3600
    assert s["session_secure"] is s["csrf_secure"] is True
    assert s["proxy_ssl_header"] is None  # only when the operator says a proxy sets it


def test_a_development_run_serves_plain_http():
    """`make run` sets no SECRET_KEY: http://127.0.0.1:8000 must keep its cookies and pages."""
    s = settings_with()

    assert s["room_env"] == "development"
    assert s["ssl_redirect"] is False
    assert s["hsts"] == 0
    assert s["session_secure"] is s["csrf_secure"] is False
    result = manage("check", "--deploy")
    assert "security.W008" in result.stderr + result.stdout  # the checklist still complains


def test_each_security_setting_can_be_set_on_its_own():
    s = settings_with(**PRODUCTION, SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="3600",
                      SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
                      LOGIN_FAILURE_LIMIT="5", LOGIN_COOLOFF_MINUTES="30",
                      LOGIN_ADDRESS_FAILURE_LIMIT="40", SIGNUPS_PER_ADDRESS_PER_DAY="2")

    assert s["ssl_redirect"] is False
    assert s["hsts"] == 3600
    assert s["proxy_ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert (s["login_limit"], s["login_cooloff"]) == (5, 1800)
    assert (s["address_login_limit"], s["signups"]) == (40, 2)


def test_production_refuses_to_start_with_the_development_secret_key():
    result = manage("check", ROOM_ENV="production")

    assert result.returncode != 0
    assert "ROOM_ENV=production needs a SECRET_KEY of its own" in result.stderr


@pytest.mark.parametrize("exposed", [
    {"ROOM_HOST": "0.0.0.0"},
    {"ROOM_HOST": "203.0.113.5"},
    {"ALLOWED_HOSTS": "poker.example.com"},
    {"ALLOWED_HOSTS": "127.0.0.1,localhost,*"},
    {"ALLOWED_HOSTS": ".example.com", "ROOM_ENV": "development"},
])
def test_a_room_reachable_beyond_loopback_refuses_to_start_without_its_own_key(exposed):
    """Forgetting SECRET_KEY used to give development mode with a key anyone can read here."""
    result = manage("check", **exposed)

    assert result.returncode != 0
    assert "has no SECRET_KEY of its own" in result.stderr

    with_key = manage("check", **exposed, SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert with_key.returncode == 0, with_key.stderr


@pytest.mark.parametrize("local", [
    {},  # `make run`
    {"ROOM_HOST": "localhost", "ALLOWED_HOSTS": "localhost,127.0.0.1,[::1]"},
    {"ROOM_HOST": "::1"},
])
def test_a_room_on_loopback_still_runs_with_the_development_key(local):
    s = settings_with(**local)

    assert s["room_env"] == "development"
    assert s["secret"] == "dev-only-insecure-key-change-me-in-production"
