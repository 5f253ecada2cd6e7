# Everything installs into a local virtual environment: a fresh machine needs only Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
THREADS ?= 16

.PHONY: run serve test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m scorer serve --host $(HOST) --port $(PORT)

# A production server (waitress: pure Python, many threads) for several tables at once.
# Bodies over 26 MiB (a 25 MiB photo and its form) are refused from the headers, unread.
serve: $(STAMP)
	$(BIN)/waitress-serve --listen=$(HOST):$(PORT) --threads=$(THREADS) --max-request-body-size=27262976 --call scorer.web:create_app

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto

bench: $(STAMP)
	$(BIN)/python benchmarks/longest_path.py

clean:
	rm -rf $(VENV) instance .pytest_cache
