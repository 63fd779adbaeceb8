"""Settings read from the environment (django-environ), with zero-setup defaults.

DATABASE_URL unset → a SQLite file in var/. REDIS_URL unset → the embedded Redis that
`python -m pokerroom.launch` starts (its URL is published in var/redis.url), else localhost.
"""
from __future__ import annotations

import os
from pathlib import Path

import environ
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env(
    DEBUG=(bool, False),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost", "testserver"]),
    CSRF_TRUSTED_ORIGINS=(list, ["http://127.0.0.1:8000", "http://localhost:8000"]),
)

DEBUG: bool = env("DEBUG")
SECRET_KEY: str = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
ALLOWED_HOSTS: list[str] = env("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS: list[str] = env("CSRF_TRUSTED_ORIGINS")


def default_redis_url() -> str:
    """The embedded Redis's URL while the launcher that published it runs, else a local server's."""
    try:
        url, pid = (VAR_DIR / "redis.url").read_text().split()
        os.kill(int(pid), 0)  # raises if the launcher is gone (a stale file)
        return url
    except (OSError, ValueError):
        return "redis://127.0.0.1:6379/0"


REDIS_URL: str = env("REDIS_URL", default="") or default_redis_url()
# Rooms (or test runs) sharing one Redis stay apart: their own channel-layer prefix, Celery queue
# and Celery control exchange (so a health ping only reaches this room's workers).
ROOM_NAMESPACE: str = env("ROOM_NAMESPACE", default="")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "accounts",
    "cashier",
    "tables",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "pokerroom.urls"
ASGI_APPLICATION = "pokerroom.asgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pokerroom.context_processors.balances",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (daphne, Celery) share the file: wait for locks instead of failing,
    # and take the write lock at BEGIN so read-then-write transactions cannot deadlock.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not :memory:) so daphne and Celery subprocesses in tests share it; one per test run.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    # One test database per test run, so concurrent runs on one server never collide.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
    # Server-side parameters let psycopg prepare the statements a connection keeps running (the
    # table lock, the hand read, the event insert...), so PostgreSQL parses and plans them once.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("ROOM_DB_HEALTH_CHECKS", default=True)
    # Django's backend with an action's writes sent with its COMMIT and health checks only on
    # idle connections (pokerroom/postgres/base.py).
    DATABASES["default"]["ENGINE"] = "pokerroom.postgres"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed, not hashed: works without collectstatic (tests, first run); `make run` collects.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Channels: Redis pub/sub. A broadcast is one PUBLISH per group, read once per process by one
# subscriber connection and handed to that process's consumers (the list-based layer costs four
# round trips per group send plus one blocking read loop per socket). Nothing is lost that
# matters: the database is the truth, and a consumer that sees a version gap fills it from
# HandEvent. socket_timeout=None keeps idle reads open (redis-py 6+ times them out otherwise).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 1000}],
            # Separate rooms (or test runs) sharing one Redis use different prefixes.
            "prefix": env("CHANNEL_LAYER_PREFIX", default=ROOM_NAMESPACE or "asgi"),
        },
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Separate rooms (or test runs) sharing one Redis use different queues.
CELERY_TASK_DEFAULT_QUEUE: str = env("CELERY_QUEUE", default=ROOM_NAMESPACE or "celery")
CELERY_CONTROL_EXCHANGE: str = ROOM_NAMESPACE or "celery"
# Workers read both queues; turn timers are routed to the second (pokerroom/celery.py).
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name, type="direct"), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE, f"{CELERY_TASK_DEFAULT_QUEUE}.timers")
)
CELERY_TASK_ROUTES = ("pokerroom.celery.route_task",)
# Turn deadlines and next hands are queued with an eta (tables/timers.py); this sweeper catches
# what a lost task (killed worker, flushed Redis) missed: overdue turns, next hands that did
# not start, players sitting out too long. A sweep expires quickly so none pile up.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "tables-sweep": {"task": "tables.sweep", "schedule": 1.0, "options": {"expires": 5}},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
