# Quick start: `make site` builds the multilingual site into site/; `make test` runs every test.
# Both set up what they need, and only that: `make site` a virtualenv in .venv with the tool
# alone; `make test` adds the test tools (pip) and, for the browser tests, a Chromium (Debian's,
# or Playwright's own where apt has none: scripts/browser-deps.sh) and fonts for Devanagari, CJK,
# Japanese and Arabic script, and GNU gettext (apt-get).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-tool
TEST_STAMP := $(VENV)/.installed-test
APT_PACKAGES := chromium fonts-lohit-deva fonts-wqy-microhei fonts-hosny-amiri gettext fonts-ipaexfont-gothic
# Pages and sitemaps carry the date of the last commit, so two builds of one commit are identical.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
# The static-site engine (manual/publishing.md, "Platform"): mkdocs (default), properdocs or zensical. The other
# two get a virtualenv of their own without the mkdocs package (scripts/engine-venv.sh), as a user
# who left MkDocs has; `make site ENGINE=zensical`. Every build ends with `check --site`: a site
# without rulesdoc's pages in every language fails, whichever engine wrote it.
ENGINE ?= mkdocs
ifeq ($(ENGINE),mkdocs)
ENGINE_PY := $(PY)
ENGINE_SETUP := $(STAMP)
else
ENGINE_PY := .venv-$(ENGINE)/bin/python
ENGINE_SETUP := engine-venv
endif

.PHONY: setup engine-venv browser-deps site serve test test-fast check lint export extract update compile bench clean

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

engine-venv:
	PYTHON=$(PYTHON) scripts/engine-venv.sh $(ENGINE) .venv-$(ENGINE)

site: $(ENGINE_SETUP)
	$(ENGINE_PY) -m rulesdoc build --engine $(ENGINE)

# Live preview with MkDocs or ProperDocs; Zensical's own preview does not run our plugin, so it
# would not rebuild on a catalog or rules.yaml change (manual/publishing.md, "Platform").
ifeq ($(ENGINE),zensical)
serve:  # refused before any virtualenv is made for it
	@echo "make serve: Zensical's preview does not rebuild on catalog or rules changes; use ENGINE=mkdocs or ENGINE=properdocs" >&2; exit 2
else
serve: $(ENGINE_SETUP)
	RULESDOC_STRICT=false $(ENGINE_PY) -m $(ENGINE) serve
endif

check: $(STAMP)
	$(PY) -m rulesdoc check

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo

# Every test, on every core (pytest-xdist). Tests sharing a built site stay on one worker: each
# module is a group (tests/conftest.py); the browser tests' site and Chromium are made once per worker. `make test TEST_WORKERS=0`
# runs them in one process.
TEST_WORKERS ?= auto
test: $(TEST_STAMP) browser-deps
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup
	$(PY) -m rulesdoc check

# The inner loop: unit tests only, no subprocess, no site build, no browser (markers: pyproject.toml),
# on every core (pytest-xdist; `make test-fast FAST_WORKERS=0`: in one process, as a debugger wants).
# It keeps bytecode caches (__pycache__/, ignored by git) where PYTHONDONTWRITEBYTECODE is set, as
# container images do: compiling every module again costs each worker ~4 s of each run.
FAST_WORKERS ?= auto
test-fast: $(TEST_STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "not slow and not browser" -n $(FAST_WORKERS) --hypothesis-profile=fast

# The bundle apps test against, and the schema rules.yaml names for editors: build/export/.
export: $(STAMP)
	$(PY) -m rulesdoc export

extract: $(STAMP)
	$(PY) -m rulesdoc catalog extract

update: extract
	$(PY) -m rulesdoc catalog update

compile: $(STAMP)
	$(PY) -m rulesdoc catalog compile

# The figures of issue 12's goals, best of BENCH_RUNS; the tables go to stdout and bench/RESULTS.md;
# then the three engines on the same content (issue 28), into bench/ENGINES.md; then the
# calculator's cost to the build and its time per card entered (issue 30), added to RESULTS.md
# (it needs the test tools: Playwright and a Chromium; and Valgrind, which counts the builds'
# instructions: apt-get, where it is missing).
BENCH_RUNS ?= 3
bench: $(TEST_STAMP)
	@command -v valgrind >/dev/null || bash -c '. scripts/apt.sh && apt_update && apt_install valgrind'
	$(PY) bench/bench.py --runs $(BENCH_RUNS)
	$(PY) bench/engines.py --runs $(BENCH_RUNS)  # the same content by each engine: bench/ENGINES.md
	$(PY) bench/calculator.py  # 9 interleaved pairs of builds (--runs) twice, 96 cards entered

clean:
	rm -rf site build .venv-properdocs .venv-zensical .pytest_cache .mypy_cache .ruff_cache tests/artifacts
