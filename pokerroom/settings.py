"""Settings read from the environment (django-environ), with zero-setup defaults.

DATABASE_URL unset → a SQLite file in var/. REDIS_URL unset → the embedded Redis that
`python -m pokerroom.launch` starts (its URL is published in var/redis.url), else localhost.
"""
from __future__ import annotations

import datetime
import logging
import os
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from observability.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env(
    DEBUG=(bool, False),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost", "testserver"]),
    CSRF_TRUSTED_ORIGINS=(list, ["http://127.0.0.1:8000", "http://localhost:8000"]),
)

DEBUG: bool = env("DEBUG")
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
SECRET_KEY: str = env("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
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
# and Celery control exchange (so a health ping only reaches this room's workers). Each
# pytest-xdist worker is a test run of its own, with its own test database.
ROOM_NAMESPACE: str = env("ROOM_NAMESPACE", default="") + os.environ.get("PYTEST_XDIST_WORKER", "")

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
    "axes",
    "csp",
    "channels",
    "django_htmx",
    "accounts",
    "cashier",
    "tables",
    "tables.tournaments",
    "bots",  # the bots client's management command only: no models, no URLs
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: turns a lockout into a page
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
    # Django's psycopg connection pool: a request or service call borrows a connection and
    # gives it back when it ends (CONN_MAX_AGE must be 0 with a pool). Daphne runs each HTTP
    # request's sync code in a thread of its own, so persistent per-thread connections piled
    # up under load until PostgreSQL refused new clients; the pool bounds them per process
    # (docs/operations.md: size it so processes x ROOM_DB_POOL_MAX < max_connections), and a
    # caller waits up to ROOM_DB_POOL_TIMEOUT seconds for a free connection instead of failing.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("ROOM_DB_POOL_MIN", default=2),
        "max_size": env.int("ROOM_DB_POOL_MAX", default=10),
        "timeout": env.float("ROOM_DB_POOL_TIMEOUT", default=20.0),
    }
    # Server-side parameters let psycopg prepare the statements a connection keeps running (the
    # table lock, the hand read, the event insert...), so PostgreSQL parses and plans them once.
    DATABASES["default"]["OPTIONS"]["server_side_binding"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Security: HTTPS, cookies, login throttling, Content-Security-Policy -------------------------
# ROOM_ENV=production turns on HTTPS-only defaults (redirect, HSTS, secure cookies); every one of
# them can still be set on its own. Unset, it is `production` as soon as a SECRET_KEY is given
# and `development` otherwise, so `make run` keeps serving http://127.0.0.1:8000 while no
# deployment (which must set its own SECRET_KEY) runs without them by forgetting a variable.
ROOM_ENV: str = env("ROOM_ENV", default="")
ROOM_ENV = ROOM_ENV or ("development" if SECRET_KEY == DEVELOPMENT_SECRET_KEY else "production")
if ROOM_ENV not in {"production", "development"}:
    raise ImproperlyConfigured(f"ROOM_ENV must be production or development, not {ROOM_ENV!r}")
if ROOM_ENV == "production" and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured("ROOM_ENV=production needs a SECRET_KEY of its own")
# Fail closed: the development key (public, in this file) is for a room only this machine can
# reach. A room listening beyond loopback (ROOM_HOST, the Procfile's bind address) or answering
# to other names than localhost's (ALLOWED_HOSTS) refuses to start without a key of its own,
# instead of quietly running in development mode with forgeable sessions.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
LOCAL_NAMES = LOOPBACK_HOSTS | {"testserver"}  # Django's test client's host
ROOM_HOST: str = env("ROOM_HOST", default="127.0.0.1")
_exposed = ([ROOM_HOST] if ROOM_HOST not in LOOPBACK_HOSTS else []) + [
    host for host in ALLOWED_HOSTS if host not in LOCAL_NAMES]
if _exposed and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        f"This room can be reached beyond this machine ({', '.join(_exposed)} in ROOM_HOST or "
        "ALLOWED_HOSTS) but has no SECRET_KEY of its own: set SECRET_KEY (50+ random "
        "characters). Only a room on loopback may run with the development key.")
PRODUCTION = ROOM_ENV == "production"

SECURE_SSL_REDIRECT: bool = env.bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
# Load balancers probe health over plain HTTP.
SECURE_REDIRECT_EXEMPT: list[str] = env.list("SECURE_REDIRECT_EXEMPT", default=[r"^healthz$", r"^readyz$", r"^livez$"])
SECURE_HSTS_SECONDS: int = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS: bool = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD: bool = env.bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)
SESSION_COOKIE_SECURE: bool = env.bool("SESSION_COOKIE_SECURE", default=PRODUCTION)
CSRF_COOKIE_SECURE: bool = env.bool("CSRF_COOKIE_SECURE", default=PRODUCTION)
# Behind a proxy that ends TLS: "HTTP_X_FORWARDED_PROTO,https" (only if the proxy always sets
# or strips that header, else clients could claim HTTPS).
_proxy_ssl_header: list[str] = env.list("SECURE_PROXY_SSL_HEADER", default=[])
if _proxy_ssl_header and len(_proxy_ssl_header) != 2:
    raise ImproperlyConfigured("SECURE_PROXY_SSL_HEADER is HEADER,VALUE, e.g. HTTP_X_FORWARDED_PROTO,https")
SECURE_PROXY_SSL_HEADER = (_proxy_ssl_header[0], _proxy_ssl_header[1]) if _proxy_ssl_header else None

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT failed log-ins within the cool-off
# for one username from one address, that username's log-ins from that address are refused,
# and after LOGIN_ADDRESS_FAILURE_LIMIT failures from one address (whatever the usernames), all
# of its log-ins are, until the cool-off has passed since the last failure (a failure while
# locked starts it again). Locking a username alone would let anyone lock the admin out from
# anywhere by failing his name. Axes has one failure limit: it counts the username+address
# pairs, and accounts.lockout.failure_limit lowers the limit to 0 for an address over its own.
# Staff unlock in admin (Axes, Access attempts: delete) or with `manage.py axes_reset_username
# NAME` / `axes_reset_ip ADDRESS`. Behind a proxy, run daphne with --proxy-headers so the
# address is the client's, not the proxy's.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before any check
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT: int = env.int("LOGIN_FAILURE_LIMIT", default=10)
LOGIN_ADDRESS_FAILURE_LIMIT: int = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=50)
if LOGIN_ADDRESS_FAILURE_LIMIT < LOGIN_FAILURE_LIMIT:
    raise ImproperlyConfigured("LOGIN_ADDRESS_FAILURE_LIMIT is at least LOGIN_FAILURE_LIMIT: an "
                               "address's failures include each of its usernames'")
AXES_FAILURE_LIMIT = "accounts.lockout.failure_limit"
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # one account from one address
# A success does not wipe the failures: it would also wipe its address's, so one valid account
# would let an address try on other accounts without end.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# Sign-ups (each one grants play money): at most SIGNUPS_PER_ADDRESS_PER_DAY accounts from one
# address (IPv6: one /64) per UTC day (accounts/throttle.py).
SIGNUPS_PER_ADDRESS_PER_DAY: int = env.int("SIGNUPS_PER_ADDRESS_PER_DAY", default=5)
AXES_VERBOSE = False  # no banner at every process start; lockouts are still logged as warnings

# Account email (the sign-up note, accounts/services.py): EMAIL_URL such as
# smtp+tls://user:password@smtp.example.com:587; unset, messages are printed to the console.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL: str = env("DEFAULT_FROM_EMAIL", default="Poker Room <noreply@localhost>")

# Content-Security-Policy (django-csp 4): scripts, styles, images and connections (including the
# table's WebSocket, which 'self' covers) only from this origin; no inline code, no eval, no
# framing. htmx's own inline style and eval are switched off in templates/_base.html.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# ---------------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The room speaks English only (no translations). With translation on, every number a page
# formats asks a thread-shared Local for the active language under its lock; a busy daphne's
# request threads queued on that lock while holding their database connections, and the
# sockets' reads waited for one (bench/capacity.py, docs/benchmarks.md).
USE_I18N = False
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

# Which daphne answered (`X-Room-Server` on HTTP responses, `server` in a table socket's `pong`),
# so an operator or a test can see where the load balancer routed a request. Not a secret: a
# short process name (the launcher's web1, web2, ...). Unset: neither is sent.
ROOM_SERVER_NAME: str = env("ROOM_SERVER_NAME", default="")

# Table broadcasts: Redis pub/sub channels named `<prefix>:<group>`, published after each
# commit and read once per server process (tables/groups.py, tables/fanout.py). No channel
# layer: consumers have no channel of their own. Separate rooms (or test runs) sharing one
# Redis use different prefixes.
ROOM_CHANNEL_PREFIX: str = env("CHANNEL_LAYER_PREFIX", default=ROOM_NAMESPACE or "room")

# Visitors who are not logged in may watch: per daphne process, at most this many of their
# sockets from one address (IPv6: one /64) and in all (tables/admission.py). Over a cap the
# socket gets an `error` frame naming it and is closed (4429).
ROOM_WS_ANONYMOUS_PER_ADDRESS: int = env.int("ROOM_WS_ANONYMOUS_PER_ADDRESS", default=20)
ROOM_WS_ANONYMOUS_MAX: int = env.int("ROOM_WS_ANONYMOUS_MAX", default=2000)

# The lobby's rows (every table's last-hour statistics) are computed at most once per this many
# seconds in each process and shared by every lobby poll and socket (tables/selectors.py).
ROOM_LOBBY_FRESH_SECONDS: float = env.float("ROOM_LOBBY_FRESH_SECONDS", default=2.0)
# What is drawn from them (tables/views.py: each page's list and rows, per kind of visitor) is
# kept in the process's memory; at Django's default 300 entries a room of 500 tables would
# drop some of each moment's rows as it drew them.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "OPTIONS": {"MAX_ENTRIES": 5000}}}

# A mid-hand action at a table this process acted at last is decided on its copy of the table
# and committed if nothing changed since (tables/services/copies.py; PostgreSQL only).
ROOM_TABLE_COPIES: bool = env.bool("ROOM_TABLE_COPIES", default=True)

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
# Turn deadlines and next hands are queued with an eta (tables/scheduling.py); this sweeper catches
# what a lost task (killed worker, flushed Redis) missed: overdue turns, next hands that did
# not start, players sitting out too long. A sweep expires quickly so none pile up.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "tables-sweep": {"task": "tables.sweep", "schedule": 1.0, "options": {"expires": 5}},
    "tournaments-sweep": {"task": "tournaments.sweep", "schedule": 5.0,
                          "options": {"expires": 10}},
}

# Waiting lists (tables/services/waitlist.py): how long an opened seat is held for the player
# offered it, and whether players seated at another table of the same game and stakes go first
# (PokerStars' "active waiting list"; off = plain first come, first served).
WAITLIST_OFFER_SECONDS: int = env.int("WAITLIST_OFFER_SECONDS", default=60)
WAITLIST_ACTIVE_FIRST: bool = env.bool("WAITLIST_ACTIVE_FIRST", default=True)

# Operations: metrics and logs (docs/operations.md) -------------------------------------------
# Prometheus: django-prometheus times every request (first and last middleware); the room's own
# metrics are in observability/metrics.py. GET /metrics (pokerroom/scrape.py) needs
# `Authorization: Bearer $METRICS_TOKEN`
# or a staff session. Set PROMETHEUS_MULTIPROC_DIR (the same empty directory for every process
# of the room) so that a scrape sums daphne's and the Celery workers' values.
INSTALLED_APPS = [*INSTALLED_APPS, "django_prometheus"]
MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "pokerroom.servername.room_server_header",
    *MIDDLEWARE,
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    # Innermost, being the one middleware that cannot run async: under daphne Django then runs
    # every other one sync, in the request's one thread. Placed first, it left those inside
    # it async, and each of them hopped to a thread and back for its sync hooks: 11.2 ms of a
    # lobby poll's CPU, against 10.3 ms now (docs/benchmarks.md). Static files still pass the
    # security headers; the session, CSRF and auth middlewares are lazy and cost them nothing.
    "whitenoise.middleware.WhiteNoiseMiddleware",
]
METRICS_TOKEN: str = env("METRICS_TOKEN", default="")
# Opt-in: count and time every SQL statement (django_db_* metrics; a few µs per statement).
if env.bool("METRICS_DATABASE", default=False):
    DATABASES["default"]["ENGINE"] = {
        "django.db.backends.sqlite3": "django_prometheus.db.backends.sqlite3",
        "django.db.backends.postgresql": "pokerroom.dbmetrics",
    }[DATABASES["default"]["ENGINE"]]

# Logs: LOG_FORMAT=text (default) or json (one object per line); table and hand ids on table
# lines; the sweeper's per-second task lines dropped (observability/logs.py). Celery workers and beat
# log through the same handler instead of replacing it with their own.
LOG_FORMAT: str = env("LOG_FORMAT", default="text")
LOGGING = logging_config(fmt=LOG_FORMAT, level=env("LOG_LEVEL", default="INFO"))
if LOG_FORMAT == "json":  # Python's warnings too, as JSON lines (logger py.warnings)
    logging.captureWarnings(True)
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# End of operations -----------------------------------------------------------------------------
