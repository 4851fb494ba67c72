# Quick start: `make site` builds the multilingual site into site/; `make test` runs every test.
# Both set up what they need, and only that: `make site` a virtualenv in .venv with the tool
# alone; `make test` adds the test tools (pip) and, for the browser tests, a Chromium (Debian's,
# or Playwright's own where apt has none: scripts/browser-deps.sh) and fonts for Devanagari, CJK,
# Japanese and Arabic script, and GNU gettext (apt-get).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MKDOCS := $(VENV)/bin/mkdocs
STAMP := $(VENV)/.installed-tool
TEST_STAMP := $(VENV)/.installed-test
APT_PACKAGES := chromium fonts-lohit-deva fonts-wqy-microhei fonts-hosny-amiri gettext fonts-ipaexfont-gothic
# Pages and sitemaps carry the date of the last commit, so two builds of one commit are identical.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup browser-deps site serve test test-fast check lint export extract update compile bench clean

# The virtualenv gets no pip of its own (ensurepip takes ~4 s): the interpreter's pip installs
# into it (--python), or, where the interpreter has none, ensurepip after all. Bytecode is
# compiled on first import, for the modules a command uses, not at install for all of them.
PIP = $(shell $(PYTHON) -m pip --version >/dev/null 2>&1 && echo "$(PYTHON) -m pip --python $(PY)" || echo "$(PY) -m pip")
# constraints.txt: the minor versions of the libraries whose internals we use, as tested.
PIP_INSTALL = $(PIP) install --quiet --disable-pip-version-check --no-compile -c constraints.txt

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --default-pip >/dev/null
	$(PIP_INSTALL) -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PIP_INSTALL) -e '.[test]'
	touch $(TEST_STAMP)

setup: $(TEST_STAMP)

# Which Chromium (Debian's deb, or Playwright's build where apt has none) is decided in the
# script, the one place the workflow shares; Playwright's route needs the test tools.
browser-deps: $(TEST_STAMP)
	@APT_PACKAGES="$(APT_PACKAGES)" scripts/browser-deps.sh $(PY)

site: $(STAMP)
	$(MKDOCS) build --strict

serve: $(STAMP)
	RULESDOC_STRICT=false $(MKDOCS) serve

check: $(STAMP)
	$(PY) -m generator check

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo

test: $(TEST_STAMP) browser-deps
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(PY) -m pytest
	$(PY) -m generator check

# The inner loop: unit tests only, no subprocess, no site build, no browser (markers: pyproject.toml),
# on every core (pytest-xdist; `make test-fast FAST_WORKERS=0`: in one process, as a debugger wants).
# It keeps bytecode caches (__pycache__/, ignored by git) where PYTHONDONTWRITEBYTECODE is set, as
# container images do: compiling every module again costs each worker ~4 s of each run.
FAST_WORKERS ?= auto
test-fast: $(TEST_STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "not slow and not browser" -n $(FAST_WORKERS)

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
