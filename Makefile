# Everything installs into a local virtual environment: a fresh machine needs only Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# make serve listens on this computer only unless HOST says otherwise; make run serves the
# table's Wi-Fi (every interface) unless HOST is given, and prints the address for the phones.
HOST ?= 127.0.0.1
RUN_HOST := $(if $(filter command line environment,$(origin HOST)),$(HOST),0.0.0.0)
PORT ?= 8000
THREADS ?= 16
PG_TESTS ?= tests/web tests/hardening tests/browser

.PHONY: run serve serve-behind-proxy backup restore test lint bench clean messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pybabel compile --statistics -d translations
	touch $(STAMP)

# The catalogues (scorer/web/i18n.py says how to add a message): `make messages` extracts every
# message of the code and the templates (babel.cfg) into the .pot and adds the new ones to each
# language's .po, where their translation is written; the app reads the .mo, compiled from the
# .po by every target that runs the app or the tests.
POT := translations/messages.pot
PO := translations/fr/LC_MESSAGES/messages.po
MO := $(PO:.po=.mo)

messages: $(STAMP)
	$(BIN)/pybabel --quiet extract -F babel.cfg --no-location --omit-header -o $(POT) .
	$(BIN)/pybabel --quiet update -i $(POT) -d translations -w 100 --ignore-pot-creation-date

$(MO): $(PO) | $(STAMP)
	$(BIN)/pybabel compile --statistics -d translations

# The table's own server: its computer's browser (at 127.0.0.1, no proxy) sees every game's
# records, the host view (scorer/web/security.py, host_view); HOST_VIEW=false turns it off.
# make serve never has it: behind a proxy on the same machine every visitor comes from loopback.
HOST_VIEW ?= true
run: $(STAMP) $(MO)
	TERMINUS_HOST_VIEW=$(HOST_VIEW) $(BIN)/python -m scorer serve --host $(RUN_HOST) --port $(PORT)

# A production server (waitress: pure Python, many threads) for several tables at once, on
# SQLite (instance/terminus.sqlite3) or, with DATABASE_URL=postgresql://..., on PostgreSQL,
# which several such processes can share. Bodies over 26 MiB (a 25 MiB photo and its form) are
# refused from the headers, unread. MALLOC_ARENA_MAX=2: glibc's per-thread memory arenas held
# ~1 GB at the peak of 10 photo uploads at once; two arenas hold ~400 MB. No host view (see run).
# Slow and idle clients: up to 1,000 connections at once (waitress' default of 100 half-sent
# requests locked every table out), each closed after 30 s without a byte either way; poll()
# because select() stops at 1,024 descriptors. SERVE_OPTIONS adds waitress options.
SERVE_OPTIONS ?=
serve: $(STAMP) $(MO)
	MALLOC_ARENA_MAX=2 TERMINUS_HOST_VIEW=false $(BIN)/waitress-serve --listen=$(HOST):$(PORT) --threads=$(THREADS) --max-request-body-size=27262976 --connection-limit=1000 --channel-timeout=30 --cleanup-interval=5 --asyncore-use-poll $(SERVE_OPTIONS) --call scorer.web:create_app

# make serve behind nginx on this machine (deploy/nginx, docs/hosting.md): the client's address
# and scheme are taken from the X-Forwarded-For and X-Forwarded-Proto that nginx writes, from
# 127.0.0.1 only (any other peer's proxy headers are dropped): the new-games limit counts per
# client, and the cookies are Secure when the page came over HTTPS. On the Internet, never
# make serve alone: 1,000 connections trickling a byte at a time lock every table out.
PROXY_OPTIONS := --trusted-proxy=127.0.0.1 --trusted-proxy-headers="x-forwarded-for x-forwarded-proto"
serve-behind-proxy: override SERVE_OPTIONS += $(PROXY_OPTIONS)
serve-behind-proxy: serve

# A consistent copy of the SQLite database, the server running or not (SQLite's online backup
# API): instance/backups/<UTC time>.sqlite3, or TO=folder or file. make restore FROM=file puts
# one back, the server stopped (the database it replaces is backed up first). PostgreSQL:
# pg_dump and pg_restore, docs/hosting.md.
TO ?=
FROM ?=
backup: $(STAMP)
	$(BIN)/python -m scorer backup $(TO)

restore: $(STAMP)
	$(BIN)/python -m scorer restore $(FROM)

# With TERMINUS_TEST_DATABASE_URL naming a PostgreSQL server (.ci/run starts one), the tests
# that build the app run a second time with the app on PostgreSQL; without it they are skipped.
test: $(STAMP) $(MO)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto
	@if [ -n "$$TERMINUS_TEST_DATABASE_URL" ]; then \
	    echo "The app's tests again, on PostgreSQL:"; \
	    TERMINUS_TEST_BACKEND=postgresql $(BIN)/python -m pytest -n auto $(PG_TESTS); \
	else \
	    echo "PostgreSQL pass skipped: no server (set TERMINUS_TEST_DATABASE_URL, as .ci/run does)"; \
	fi

bench: $(STAMP)
	$(BIN)/python benchmarks/longest_path.py

clean:
	rm -rf $(VENV) instance .pytest_cache
