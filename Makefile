# Quick start: `make site` builds the multilingual site into site/; `make test` runs every test.
# Both set up what they need: a virtualenv in .venv (pip) and, for the browser tests,
# Debian's Chromium and a Devanagari font (apt-get).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MKDOCS := $(VENV)/bin/mkdocs
STAMP := $(VENV)/.installed
APT_PACKAGES := chromium fonts-lohit-deva
# Pages and sitemaps carry the date of the last commit, so two builds of one commit are identical.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup browser-deps site serve test check lint export extract update compile bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

browser-deps:
	@if [ -x /usr/bin/chromium ] && dpkg -s fonts-lohit-deva >/dev/null 2>&1; then :; else \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES); \
	fi

site: $(STAMP)
	$(MKDOCS) build --strict

serve: $(STAMP)
	RULESDOC_STRICT=false $(MKDOCS) serve

check: $(STAMP)
	$(PY) -m generator check

lint: $(STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy

test: $(STAMP) browser-deps
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/mypy
	$(PY) -m pytest
	$(PY) -m generator check

# The bundle apps test against, and the schema rules.yaml names for editors: build/export/.
export: $(STAMP)
	$(PY) -m generator export

extract: $(STAMP)
	$(PY) -m generator catalog extract

update: extract
	$(PY) -m generator catalog update

compile: $(STAMP)
	$(PY) -m generator catalog compile

# The figures of issue 12's goals, best of BENCH_RUNS; the tables go to stdout and bench/RESULTS.md.
BENCH_RUNS ?= 3
bench: $(STAMP)
	$(PY) bench/bench.py --runs $(BENCH_RUNS)

clean:
	rm -rf site build .pytest_cache .mypy_cache .ruff_cache tests/artifacts
