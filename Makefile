# The room's two commands: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run run-routed test install install-dev chromium nginx lint migrate demo bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(PY)
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PIP) install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

# Browser tests drive Debian's chromium (Playwright never downloads a browser of its own).
chromium:
	@command -v chromium >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# Routing by table (deploy/nginx/, `make run-routed`, tests/pokerroom/test_routing.py) runs
# Debian's nginx as the user's own foreground process; only the package needs root. Debian puts
# nginx in /usr/sbin, which is not on every user's PATH.
nginx:
	@command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx; }

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

## Install, migrate, create demo data, then run daphne + Celery worker + beat (+ embedded Redis).
run: demo
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) -m pokerroom.launch run

## As `make run`, with SERVERS daphne processes behind nginx that routes each table's sockets to
## one of them (consistent hash of the table id) and the rest to the least busy, or to PAGES
## daphnes of their own; nginx listens on http://127.0.0.1:8000, the daphnes on the ports after
## it (docs/operations.md).
SERVERS ?= 2
PAGES ?= 0
run-routed: demo nginx
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) -m pokerroom.launch run --servers $(SERVERS) --pages $(PAGES)

## Install what tests need and run every test (ruff first), in TEST_WORKERS pytest-xdist
## processes: most tests wait on sockets, browsers and timers, so two share 2 cores well.
TEST_WORKERS ?= 2
test: install-dev chromium nginx
	$(VENV)/bin/ruff check .
	$(PY) -m pokerroom.launch test -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .

bench: install-dev
	$(PY) bench/engine.py
	$(PY) bench/rng.py --decks 100000

clean:
	rm -rf $(VENV) var staticfiles
