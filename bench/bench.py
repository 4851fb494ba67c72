#!/usr/bin/env python3
"""`make bench`: how fast and how big the site build, the set-up, the CLI and the preview are.

Not a test: one run prints a table of figures and ratios, each goal of issue 12 marked PASS or
MISS, then the details (growth with the number of languages, where the CLI's time goes, render
scaling, peak memory). The table is also written to bench/RESULTS.md.

    1. site CPU   our `mkdocs build` (process tree) / one plain MkDocs build   <= 1.5x (6/20/48 languages)
    2. wall time  our build's wall time / its CPU time                       <= 0.7  (20, 48 languages)
    3. site size  du of our site / du of the plain site                      <= 1.5x (6/20/48 languages)
    4. set-up     fresh clone: `make site`'s set-up (the tool alone)           <= 15 s, <= 200 MB
    5. CLI        `rulesdoc render` (6 languages) / python -c "import jinja2, babel, yaml"   <= 1.5x
    6. preview    `mkdocs serve`, 20 languages: save a .po -> its page serves the new text  <= 1 s

*Plain build*: one `mkdocs build` of a generated config (the project's mkdocs.yml inherited:
Material, search, the same Markdown extensions and CSS, no rulesdoc plugin) whose docs_dir
holds the rendered English pages at its root and every other language's in a `<tag>/` folder.

The 20- and 48-language projects are copies of the repository's project with extra catalogs
made by `rulesdoc catalog init CODE` for real CLDR codes and filled with the Danish catalog's
translations; every language of every project must build with `mkdocs build --strict`.

Every timing is the best of N runs of a fresh subprocess, as CPU time (user + system of the
process and every child it waited for, from wait4: our build's forked workers count) with the
wall time beside it. CPU time barely moves when other work shares the machine, wall time does;
ratios use CPU time, except the wall-time goal, the set-up and the preview, which are wall time
by nature. Children write their bytecode to a cache outside the repository (the environment
may set PYTHONDONTWRITEBYTECODE, which would make every child compile the package again while
the floor's libraries have theirs installed). Nothing is written in the repository but
bench/RESULTS.md.

    .venv/bin/python bench/bench.py [--runs N] [--results bench/RESULTS.md] [--skip SECTION]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import functools
import io
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
BIN = Path(PY).parent
MKDOCS = str(BIN / "mkdocs")
RULESDOC = str(BIN / "rulesdoc")
PYCACHE = Path(tempfile.gettempdir()) / "rulesdoc-bench-pycache"
# The children's cache (generator/io/cache.py: compiled templates, extractions, parsed catalogs):
# the bench's own, so that the user's neither helps nor changes; the warm-up runs fill it, as a
# user's first build does.
USER_CACHE = Path(tempfile.gettempdir()) / "rulesdoc-bench-cache"
sys.pycache_prefix = str(PYCACHE)  # this process imports generator too: no __pycache__ in the repository
sys.path.insert(0, str(REPO))
EPOCH = "1700000000"
# mkdocs.yml too: babel.cfg extracts the theme's strings from it, and `render` checks the POT
# against that extraction (without it, every theme message would read as stale).
PROJECT_FILES = ("rules.yaml", "templates", "locales", "babel.cfg", "mkdocs.yml")
SITE_FILES = (*PROJECT_FILES, "docs", "overrides")
FLOOR = [PY, "-c", "import jinja2, babel, yaml"]
SITE_SIZES = (6, 20, 48)
# Extra languages for the 20- and 48-language projects, in this order: real CLDR locales,
# among them right-to-left scripts (ar he fa ur), six plural forms (ar, cy), one form (ja ko zh ...).
PSEUDO_CODES = (
    "de fr es it sv nb fi pl cs sk sl hr sr bg ro hu el tr ru uk lt lv et is ga cy ca eu gl sq mk "
    "bs ar he fa ur bn ta te mr gu kn ml th vi id sw zu af ja ko zh"
).split()
THEME_CONTEXT = "theme"
# The preview's edit: the Danish translation of the home page's longest message gets a word more
# (found in the POT by its place, so that rewording the page does not break the bench).
PREVIEW_PAGE = "templates/index.md.j2"
GOALS = {
    "1": "Site CPU <= 1.5x one plain MkDocs build, at 6, 20 and 48 languages",
    "2": "Wall time <= 0.7x the build's CPU time, at 20 and 48 languages",
    "3": "Site size <= 1.5x the plain build's, at 6, 20 and 48 languages",
    "4": "Set-up from a fresh clone: the tool alone, <= 15 s and <= 200 MB",
    "5": "CLI: render <= 1.5x the import floor",
    "6": "Preview: save a .po -> the page serves the new text in <= 1 s (20 languages)",
}


# ---------------------------------------------------------------- running things


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(PYCACHE), SOURCE_DATE_EPOCH=EPOCH, NO_MKDOCS_2_WARNING="1")
    env.update(RULESDOC_CACHE_DIR=str(USER_CACHE))
    env.update(extra)
    return env


@dataclass(frozen=True)
class Timing:
    """Best of N: CPU time (user + system) and wall time, each the minimum over the runs."""

    cpu: float
    wall: float

    def __str__(self) -> str:
        return f"{seconds(self.cpu)} (wall {seconds(self.wall)})"

    def __truediv__(self, other: Timing) -> float:
        return self.cpu / other.cpu


@dataclass(frozen=True)
class Ran:
    timing: Timing
    maxrss_kib: int
    output: str  # stdout and stderr, when captured


def run(cmd: list[str], cwd: Path = REPO, env: dict[str, str] | None = None, capture: bool = False) -> Ran:
    """One subprocess: CPU time of it and every child it waited for (wait4), wall time, peak RSS.

    A failure stops the bench, loudly: a figure of a build that failed would be meaningless.
    """
    start = time.perf_counter()
    process = subprocess.Popen(
        cmd,
        cwd=cwd,
        env=env if env is not None else child_env(),
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        stderr=subprocess.STDOUT if capture else subprocess.PIPE,
    )
    pipe = process.stdout if capture else process.stderr
    assert pipe is not None
    output = pipe.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    pipe.close()
    text = output.decode(errors="replace")
    if process.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} (in {cwd}) exited {process.returncode}:\n{text[-4000:]}")
    return Ran(Timing(usage.ru_utime + usage.ru_stime, elapsed), usage.ru_maxrss, text)


def best(runs: int, cmd: list[str], cwd: Path = REPO, warm: bool = True, **env: str) -> Timing:
    if warm:
        run(cmd, cwd, child_env(**env))  # warm-up: bytecode cache, page cache
    timings = [run(cmd, cwd, child_env(**env)).timing for _ in range(runs)]
    return Timing(min(t.cpu for t in timings), min(t.wall for t in timings))


def render_cmd(root: Path, out: Path, *extra: str) -> list[str]:
    return [RULESDOC, "--root", str(root), "render", "--out", str(out), *extra]


def copy_project(dest: Path, names: tuple[str, ...] = PROJECT_FILES, source: Path = REPO) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("*.mo", "__pycache__")
    for name in names:
        path = source / name
        if path.is_dir():
            shutil.copytree(path, dest / name, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, dest / name)
    return dest


def du_kib(path: Path) -> int:
    """Disk usage as `du -sk` reports it (blocks, not apparent size)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


@dataclass
class Row:
    what: str
    value: str
    goal: str = ""
    ok: bool | None = None
    issue_goal: str = ""  # the number of the issue-12 goal this row decides, if any

    @property
    def verdict(self) -> str:
        return "" if self.ok is None else ("PASS" if self.ok else "MISS")


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def mib(kib: float) -> str:
    return f"{kib:.0f} KiB" if kib < 1024 else f"{kib / 1024:.1f} MiB"


def ratio_text(value: float) -> str:
    return f"{value:.2f}x"


# ---------------------------------------------------------------- projects with N languages


def catalog_codes(locales: Path) -> list[str]:
    return sorted(p.parent.parent.name for p in locales.glob("*/LC_MESSAGES/messages.po"))


def fill_from_danish(path: Path, danish: Any) -> None:
    """Fill a catalog made by `catalog init` with the Danish catalog's translations.

    Plural entries get exactly as many forms as the new catalog's CLDR Plural-Forms header: the
    form used for n = 1 takes Danish's singular, every other form Danish's plural (both forms of
    every Danish entry carry the same placeholders, so placeholders stay valid). Theme messages
    keep what `catalog init` prefilled from Material's own translations, English where none.
    """
    from babel.messages.pofile import read_po

    from rulesdoc.catalog import plurals, po_writer

    catalog = read_po(io.BytesIO(path.read_bytes()))
    rule = plurals.parse(catalog.plural_forms)
    used_for = rule.samples_by_form()
    for message in catalog:
        if not message.id:
            continue
        plural = isinstance(message.id, tuple | list)
        if message.context == THEME_CONTEXT and not plural:
            message.string = message.string or message.id
        else:
            theirs = danish.get(message.id, message.context)
            if theirs is None or not theirs.string or theirs.fuzzy:
                raise SystemExit(f"bench: the Danish catalog does not translate {message.id!r}")
            if plural:
                one, other = theirs.string[0], theirs.string[-1]
                message.string = tuple(one if 1 in used_for[i] else other for i in range(rule.count))
            else:
                message.string = theirs.string
        message.flags.discard("fuzzy")
    path.write_bytes(po_writer.to_bytes(catalog))


def make_language_project(dest: Path, count: int) -> Path:
    """A copy of the repository's project with ``count`` languages (English included)."""
    from babel.messages.pofile import read_po

    from rulesdoc.cli.main import run as rulesdoc

    project = copy_project(dest, SITE_FILES)
    locales = project / "locales"
    existing = catalog_codes(locales)
    needed = count - 1 - len(existing)  # English needs no catalog
    if needed < 0:
        raise SystemExit(f"bench: the repository has {len(existing) + 1} languages, more than {count}")
    codes = [code for code in PSEUDO_CODES if code not in existing][:needed]
    if len(codes) != needed:
        raise SystemExit(f"bench: not enough codes in PSEUDO_CODES for {count} languages")
    danish = read_po(io.BytesIO((locales / "da" / "LC_MESSAGES" / "messages.po").read_bytes()))
    for code in codes:
        # `rulesdoc catalog init CODE`, in this process: the same code path, without 42 interpreter starts.
        with contextlib.redirect_stdout(io.StringIO()):
            status = rulesdoc(["--root", str(project), "catalog", "init", code])
        if status != 0:
            raise SystemExit(f"bench: rulesdoc catalog init {code} exited {status}")
        fill_from_danish(locales / code / "LC_MESSAGES" / "messages.po", danish)
    return project


@dataclass
class Projects:
    """Projects with N languages, made once per run and shared by the sections (read-only)."""

    root: Path
    made: dict[int, Path] = field(default_factory=dict)

    def languages(self, count: int) -> Path:
        if count not in self.made:
            self.made[count] = make_language_project(self.root / f"languages-{count}", count)
        return self.made[count]


def tags_of(project: Path) -> list[str]:
    """The folder (BCP 47 tag) of every language but English, as the site names them."""
    from rulesdoc.localedata.cldr import bcp47

    return [bcp47(code) for code in catalog_codes(project / "locales")]


# ---------------------------------------------------------------- goals 1-3: the site build


def plain_config(project: Path, tmp: Path) -> Path:
    """Render every language's pages; lay them out as one docs_dir (English at its root, every
    other language in a `<tag>/` folder, the project's docs/ assets beside them); write one
    plain MkDocs config for it: the project's mkdocs.yml inherited, without the rulesdoc plugin.

    The nav stays the inherited one (the English pages): every page then carries a three-entry
    nav, as every page of our site does; without a nav, MkDocs would list all 3 x N pages on
    every page, and the plain site would grow with the square of the languages.
    """
    import yaml

    from rulesdoc.localedata.cldr import bcp47

    pages = tmp / "pages"
    run(render_cmd(project, pages))
    docs = tmp / "docs"
    shutil.copytree(project / "docs", docs)  # assets/rulesdoc.css
    for lang_dir in sorted(p for p in pages.iterdir() if p.is_dir()):
        target = docs if lang_dir.name == "en" else docs / bcp47(lang_dir.name)
        shutil.copytree(lang_dir, target, dirs_exist_ok=True)
    config = {
        "INHERIT": str(project / "mkdocs.yml"),
        "docs_dir": str(docs),
        "site_dir": str(tmp / "site"),
        "plugins": ["search"],  # lists replace, not merge: no rulesdoc
        "watch": [],
    }
    path = tmp / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
    return path


def verify_site(site: Path, project: Path) -> None:
    """Every language built: its own pages, 404 and search index, with its <html lang>."""
    for tag in ["en", *tags_of(project)]:
        folder = site if tag == "en" else site / tag
        for name in ("index.html", "scoring.html", "404.html", "search/search_index.json"):
            if not (folder / name).is_file():
                raise SystemExit(f"bench: {folder / name} is missing after a strict build")
        if f'<html lang="{tag}"' not in (folder / "index.html").read_text("utf-8"):
            raise SystemExit(f"bench: {folder / 'index.html'} is not <html lang={tag!r}>")


# `mkdocs build` as its console script runs it, reporting at exit the CPU time of the main process
# and of the workers it forked and reaped, apart (wait4 in the bench sees only their sum). Forked
# workers leave by os._exit and never run the atexit hook.
SPLIT = r"""
import atexit, json, os, resource, sys
from mkdocs.__main__ import cli
def report():
    main = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    split = {"main": main.ru_utime + main.ru_stime, "workers": workers.ru_utime + workers.ru_stime}
    with open(os.environ["BENCH_SPLIT_OUT"], "w") as out:
        json.dump(split, out)
atexit.register(report)
sys.argv = ["mkdocs", *sys.argv[1:]]
sys.exit(cli())
"""


# What our build does besides MkDocs, for every language, in one process: read the catalogs,
# render the pages and run check's checks on them (the strict build's one policy).
OWN_WORK = r"""
import sys, time
from pathlib import Path
from rulesdoc.site.languages import prepare
from rulesdoc.io.project import Project
from rulesdoc.pages.render import Project
start = time.process_time()
prepare(Project.at(Path(sys.argv[1])), [], strict=True)
print(time.process_time() - start)
"""


@dataclass
class SiteFigures:
    languages: int
    ours: Timing
    plain: Timing
    ours_kib: int
    plain_kib: int
    main_cpu: float  # of one more build: the main process alone
    workers_cpu: float  # and its children together (the helper process and the workers)
    workers: int  # how many the build forks: one per core, at most one per language
    own_work: float  # CPU of reading, rendering and checking every language (no MkDocs)


def one_site(runs: int, project: Path, tmp: Path, count: int) -> SiteFigures:
    plain_dir = tmp / f"plain-{count}"
    plain_dir.mkdir()
    config = plain_config(project, plain_dir)
    ours_site = tmp / f"site-{count}"
    ours_cmd = [MKDOCS, "build", "--strict", "--quiet", "-d", str(ours_site)]
    plain_cmd = [MKDOCS, "build", "--strict", "--quiet", "-f", str(config)]
    run(ours_cmd, project)  # the warm-up, and the strict build every language must pass
    verify_site(ours_site, project)
    run(plain_cmd, plain_dir)
    ours = best(runs, ours_cmd, project, warm=False)
    plain = best(runs, plain_cmd, plain_dir, warm=False)
    split_out = tmp / f"split-{count}.json"
    run([PY, "-c", SPLIT, *ours_cmd[1:]], project, child_env(BENCH_SPLIT_OUT=str(split_out)))
    split = json.loads(split_out.read_text())
    workers = min(count - 1, os.cpu_count() or 1)
    own_work = min(float(run([PY, "-c", OWN_WORK, str(project)], capture=True).output) for _ in range(runs))
    return SiteFigures(
        count,
        ours,
        plain,
        du_kib(ours_site),
        du_kib(plain_dir / "site"),
        split["main"],
        split["workers"],
        workers,
        own_work,
    )


def site_builds(runs: int, tmp: Path, projects: Projects, sizes: tuple[int, ...]) -> tuple[list[Row], Any]:
    figures = []
    for count in sizes:
        print(f"    site: {count} languages", file=sys.stderr, flush=True)
        figures.append(one_site(runs, projects.languages(count), tmp, count))
    rows: list[Row] = []
    for f in figures:
        cpu_ratio = f.ours / f.plain
        wall_share = f.ours.wall / f.ours.cpu
        size_ratio = f.ours_kib / f.plain_kib
        n = f.languages
        rows += [
            Row(f"mkdocs build, {n} languages: ours (process tree)", str(f.ours)),
            Row(f"mkdocs build, {n} languages: plain (one build, a folder per language)", str(f.plain)),
            Row(f"  site CPU ours / plain, {n} languages", ratio_text(cpu_ratio) + f" (wall "
                f"{ratio_text(f.ours.wall / f.plain.wall)})", "<= 1.5x", cpu_ratio <= 1.5, "1"),
            Row(f"  of which our own work: read, render and check {n} languages (one process)",
                f"{seconds(f.own_work)} = {ratio_text(f.own_work / f.plain.cpu)} of the plain build: "
                f"ours >= {ratio_text(1 + f.own_work / f.plain.cpu)} of plain, MkDocs costing no more"),
            Row(f"  wall / CPU of our build, {n} languages", f"{wall_share:.2f}",
                "<= 0.7" if n >= 20 else "", wall_share <= 0.7 if n >= 20 else None, "2" if n >= 20 else ""),
            Row(f"  CPU of one more build, {n} languages: main process + its children",
                f"{seconds(f.main_cpu)} + {seconds(f.workers_cpu)} (the helper and {f.workers} workers; "
                "the main process works beside them for part of its time)"),
            Row(f"  site size ours / plain, {n} languages",
                f"{mib(f.ours_kib)} / {mib(f.plain_kib)} = {ratio_text(size_ratio)}",
                "<= 1.5x", size_ratio <= 1.5, "3"),
        ]  # fmt: skip
    if len(figures) >= 2:
        rows += growth_rows(figures)
    return rows, [f.__dict__ | {"ours": f.ours.__dict__, "plain": f.plain.__dict__} for f in figures]


def growth_rows(figures: list[SiteFigures]) -> list[Row]:
    sizes = [f.languages for f in figures]
    span = " -> ".join(map(str, sizes))
    added = sizes[-1] - sizes[0]

    def series(values: list[float], show: Callable[[float], str], unit: str) -> str:
        growth = values[-1] / values[0]
        per = (values[-1] - values[0]) / added
        return f"{' -> '.join(map(show, values))} (x{growth:.1f}; {show(per)}{unit} per added language)"

    kib = [lambda f: f.ours_kib, lambda f: f.plain_kib]
    return [
        Row(f"growth {span} languages: site CPU, ours", series([f.ours.cpu for f in figures], seconds, "")),
        Row(f"growth {span} languages: site CPU, plain", series([f.plain.cpu for f in figures], seconds, "")),
        Row(f"growth {span} languages: wall, ours", series([f.ours.wall for f in figures], seconds, "")),
        Row(f"growth {span} languages: wall, plain", series([f.plain.wall for f in figures], seconds, "")),
        Row(f"growth {span} languages: size, ours", series([kib[0](f) for f in figures], mib, "")),
        Row(f"growth {span} languages: size, plain", series([kib[1](f) for f in figures], mib, "")),
        Row(f"growth {span} languages: CPU ratio ours / plain",
            " -> ".join(ratio_text(f.ours / f.plain) for f in figures)),
    ]  # fmt: skip


# ---------------------------------------------------------------- goal 4: set-up from a fresh clone


def setup_from_clone(tmp: Path) -> tuple[list[Row], Any]:
    """`git clone` of this repository, then the set-up `make site` runs there: the tool alone.

    Timed as wall time (downloads are part of a set-up) by running the Makefile's own recipe
    (`make .venv/.installed-tool`); pip's cache is the user's, as it would be. Not best of N: a
    second run would only measure a warmer cache.
    """
    clone = tmp / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    # What `make site` would run in the fresh clone (dry run: nothing is executed).
    dry = subprocess.run(["make", "-n", "site"], cwd=clone, capture_output=True, text=True, check=True)
    installs = [line.strip() for line in dry.stdout.splitlines() if " install " in line and " -e " in line]
    extras = [line for line in installs if "[" in line]
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "VIRTUAL_ENV", "MAKEFLAGS")
    }
    setup = run(["make", "--quiet", ".venv/.installed-tool"], clone, env, capture=True)
    size_kib = du_kib(clone / ".venv")
    megabytes = size_kib * 1024 / 1e6
    rows = [
        Row("set-up: `make site`'s set-up in a fresh clone (make .venv/.installed-tool), wall",
            f"{seconds(setup.timing.wall)} (CPU {seconds(setup.timing.cpu)})", "<= 15 s",
            setup.timing.wall <= 15, "4"),
        Row("  size of .venv (du)", f"{megabytes:.0f} MB ({mib(size_kib)})", "<= 200 MB",
            megabytes <= 200, "4"),
        Row("  `make site` on a fresh clone installs (make -n site)",
            "; ".join(installs) or "nothing found", "the tool alone", not extras and bool(installs), "4"),
    ]  # fmt: skip
    return rows, {"setup": setup.timing.__dict__, "size_kib": size_kib, "make_site_installs": installs}


# ---------------------------------------------------------------- goal 5: the CLI vs the floor

# The stages of a render, in a fresh process, with the code the CLI runs: Workspace.load (timed
# through the functions it calls), workspace.render, write_pages.
STAGES = r"""
import json, sys, tempfile, time
from pathlib import Path
clock = time.process_time  # CPU time of this process, as the other figures
t0 = clock()
import rulesdoc.cli.main  # what `rulesdoc` imports before it renders
t1 = clock()
from rulesdoc.catalog import po
from rulesdoc.pages import environment, render
from rulesdoc.io import project
from rulesdoc.io.project import Project
spent = {"rules": 0.0, "catalogs": 0.0, "templates": 0.0}
active = []
def timed(key, function):
    def wrapper(*args, **kwargs):
        if active:  # called by another timed function: counted there
            return function(*args, **kwargs)
        active.append(key); start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent[key] += clock() - start; active.pop()
    return wrapper
render.load_rules = timed("rules", render.load_rules)
render.discover_languages = timed("catalogs", render.discover_languages)
render.judge_catalog = timed("catalogs", render.judge_catalog)
po.load = timed("catalogs", po.load)
for name in ("make_environment", "page_templates"):
    setattr(render, name, timed("templates", getattr(render, name)))
environment.plural_counts = timed("templates", environment.plural_counts)
t2 = clock()
workspace = render.Workspace.load(Project.at(Path(sys.argv[1])))
t3 = clock()
for name in workspace.names:
    workspace.env.get_template(name)  # compiled now, so that the render below only renders
t4 = clock()
results = workspace.render(workspace.languages)
t5 = clock()
pages = [page for result in results.values() for page in result.pages]
render.write_pages(pages, Path(tempfile.mkdtemp()) / "out")
t6 = clock()
print(json.dumps({
    "import rulesdoc.cli.main": t1 - t0,
    "load rules.yaml": spent["rules"],
    "read and judge catalogs": spent["catalogs"],
    "compile templates (scan, plural counts, compile)": spent["templates"] + (t4 - t3),
    "the rest of Workspace.load": (t3 - t2) - sum(spent.values()),
    "render pages (workspace.render, locale data included)": t5 - t4,
    "write files (write_pages)": t6 - t5,
}))
"""


def cli_vs_floor(runs: int, tmp: Path) -> tuple[list[Row], Any]:
    floor = best(runs, FLOOR)
    interpreter = best(runs, [PY, "-c", "pass"])
    render = best(runs, render_cmd(REPO, tmp / "pages"))
    imports = best(runs, [PY, "-c", "import rulesdoc.cli.main"])
    stages: dict[str, float] = {}
    for _ in range(runs):  # best of N per stage, in a fresh process each time
        out = run([PY, "-c", STAGES, str(REPO)], capture=True)
        for key, value in json.loads(out.output.strip().splitlines()[-1]).items():
            stages[key] = min(value, stages.get(key, value))
    ratio = render / floor
    wall_ratio = render.wall / floor.wall
    rows = [
        Row("floor: python -c 'import jinja2, babel, yaml'", str(floor)),
        Row("rulesdoc render, 6 languages x 3 pages (fresh process)", str(render)),
        Row("  CLI: render / floor", f"{ratio_text(ratio)} (wall {ratio_text(wall_ratio)})", "<= 1.5x",
            ratio <= 1.5, "5"),
        Row("  of which: interpreter start (python -c pass)", str(interpreter)),
    ]  # fmt: skip
    rows += [Row(f"  of which: {key}", seconds(value)) for key, value in stages.items()]
    rest = render.cpu - interpreter.cpu - sum(stages.values())
    rest_what = "  of which: the rest (console script, arguments, policy, printing, exit)"
    rows.append(Row(rest_what, seconds(rest)))
    rows.append(Row("  python -c 'import rulesdoc.cli.main' alone, whole process", str(imports)))
    return rows, {
        "floor": floor.__dict__, "render": render.__dict__, "ratio": ratio, "wall_ratio": wall_ratio,
        "stages": stages, "imports": imports.__dict__, "interpreter": interpreter.__dict__,
    }  # fmt: skip


# ---------------------------------------------------------------- goal 6: the live preview


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def wait_for(predicate: Callable[[], bool], timeout: float, poll: float = 0.02) -> float | None:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate():
            return time.perf_counter() - start
        time.sleep(poll)
    return None


@contextlib.contextmanager
def serving(project: Path, log_path: Path) -> Iterator[tuple[str, int]]:
    """`mkdocs serve` of ``project`` as `make serve` runs it; yields its base URL and its pid."""
    port = free_port()
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [MKDOCS, "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project, env=child_env(RULESDOC_STRICT="false"),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            yield f"http://127.0.0.1:{port}", server.pid
        finally:
            os.killpg(server.pid, signal.SIGTERM)  # the server we started, and only its group
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def process_cpu(pid: int) -> float:
    """CPU time (user + system) a running process has used so far, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


BUILT_IN = re.compile(r"Documentation built in ([\d.]+) seconds")


def last_build_seconds(log_path: Path, offset: int) -> float | None:
    """MkDocs' own figure for the rebuild logged after ``offset``: the largest "built in" line is
    the main build's (the language builds log theirs inside it, and a second save event may
    bring a second rebuild)."""
    found = BUILT_IN.findall(log_path.read_bytes()[offset:].decode(errors="replace"))
    return max(map(float, found)) if found else None


def served(url: str, text: str) -> bool:
    return text in fetch(url)


@dataclass
class Saves:
    latencies: list[float]
    rebuilds: list[float | None]  # wall time, as MkDocs logs it
    cpu: list[float]  # the server's CPU time from the save until the page served the new text
    startup: float


def measure_saves(
    project: Path,
    tmp: Path,
    page: str,
    original_text: str,
    edits: list[tuple[Callable[[], object], str]],
) -> Saves:
    """Start a server, wait for ``page`` to show ``original_text``; then for each edit (a save and
    the text it must bring), the wall time from the save until the page serves that text."""
    log_path = tmp / f"serve-{project.name}.log"
    with serving(project, log_path) as (base, pid):
        url = f"{base}/{page}"
        startup = wait_for(functools.partial(served, url, original_text), 300, 0.25)
        if startup is None:
            raise SystemExit(f"bench: mkdocs serve did not serve {url}; see {log_path}")
        latencies: list[float] = []
        rebuilds: list[float | None] = []
        cpu: list[float] = []
        for save, expected in edits:
            time.sleep(2.0)  # let the watcher (it polls every 0.5 s) settle after the previous build
            offset = log_path.stat().st_size
            cpu_before = process_cpu(pid)  # the preview builds in the server process: no workers
            start = time.perf_counter()
            save()
            seen = wait_for(functools.partial(served, url, expected), 180)
            if seen is None:
                raise SystemExit(f"bench: {expected!r} never appeared at {url}; see {log_path}")
            latencies.append(time.perf_counter() - start)
            cpu.append(process_cpu(pid) - cpu_before)
            time.sleep(0.3)  # the log line follows the build
            rebuilds.append(last_build_seconds(log_path, offset))
    return Saves(latencies, rebuilds, cpu, startup)


def saves_rows(what: str, saves: Saves, issue_goal: str) -> list[Row]:
    worst = max(saves.latencies)
    known = [r for r in saves.rebuilds if r is not None]
    rows = [
        Row(what, f"best {seconds(min(saves.latencies))}, worst {seconds(worst)} "
            f"({len(saves.latencies)} saves)",
            "<= 1 s (worst)" if issue_goal else "", worst <= 1 if issue_goal else None, issue_goal),
        Row("  of which: the rebuild, as MkDocs logs it (the rest: its watcher polls every 0.5 s)",
            ", ".join(seconds(r) for r in known) if known else "not logged"),
        Row("  the server's CPU time per save (save -> served)", ", ".join(seconds(c) for c in saves.cpu)),
        Row("  startup of mkdocs serve (first page served)", seconds(saves.startup)),
    ]  # fmt: skip
    return rows


def preview_msgid(project: Path) -> str:
    """The longest message of the home page's template (``PREVIEW_PAGE``), from the POT."""
    from babel.messages.pofile import read_po

    with (project / "locales" / "messages.pot").open("rb") as pot:
        catalog = read_po(pot)
    found = [
        message.id
        for message in catalog
        if isinstance(message.id, str) and not message.context
        and any(place == PREVIEW_PAGE for place, _ in message.locations)
    ]  # fmt: skip
    if not found:
        raise SystemExit(f"bench: no message of {PREVIEW_PAGE} in the POT")
    return max(found, key=len)


def one_line_entry(po: str, msgid: str) -> str:
    """The catalog with ``msgid``'s entry written on one line each (catalog updates wrap it)."""
    wrapped = re.compile(r'msgid ""\n((?:"[^"\n]*"\n)+)msgstr ""\n((?:"[^"\n]*"\n)+)')

    def unwrap(match: re.Match[str]) -> str:
        found, translation = ("".join(re.findall(r'"([^"\n]*)"', match.group(n))) for n in (1, 2))
        return f'msgid "{found}"\nmsgstr "{translation}"\n' if found == msgid else match.group(0)

    return wrapped.sub(unwrap, po)


def entry_pattern(msgid: str) -> re.Pattern[str]:
    """``msgid``'s entry as :func:`one_line_entry` writes it: groups 1 and 3 around the
    translation, group 2."""
    return re.compile(r'(msgid "' + re.escape(msgid) + r'"\nmsgstr ")([^"]+)(")')


def preview(tmp: Path, projects: Projects, saves: int = 3) -> tuple[list[Row], Any]:
    rows: list[Row] = []
    figures: dict[str, Any] = {}

    # Goal 6: 20 languages, a translation changed in the Danish catalog.
    project = copy_project(tmp / "serve-20", SITE_FILES, projects.languages(20))
    catalog = project / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    msgid = preview_msgid(project)
    original = one_line_entry(catalog.read_text("utf-8"), msgid)
    entry = entry_pattern(msgid)
    found = entry.search(original)
    if found is None:
        raise SystemExit(f"bench: {catalog} has no one-line translation of {msgid!r}")
    danish = found.group(2)

    def po_edit(number: int) -> tuple[Callable[[], object], str]:
        # The marker goes after the first word: a translation that still held the other catalogs'
        # whole sentence (the pseudo languages' Danish) would be flagged as foreign text.
        marker = f"(gemt {number})"
        first, rest = danish.split(" ", 1)
        changed = f"{first} {marker} {rest}"
        text = entry.sub(lambda m: m.group(1) + changed + m.group(3), original, count=1)
        return (lambda: catalog.write_text(text, "utf-8")), marker

    print("    preview: .po, 20 languages", file=sys.stderr, flush=True)
    po_saves = measure_saves(project, tmp, "da/index.html", danish, [po_edit(n) for n in range(1, saves + 1)])
    rows += saves_rows("preview: save da's .po -> da/index.html serves it (20 languages)", po_saves, "6")
    figures["po_20"] = po_saves.__dict__

    # The earlier row, kept for comparison: 6 languages, a rule value changed in rules.yaml.
    project = copy_project(tmp / "serve-6", SITE_FILES)
    rules = project / "rules.yaml"
    original_rules = rules.read_text("utf-8")
    if "  joker: 20\n" not in original_rules:
        raise SystemExit("bench: rules.yaml no longer has '  joker: 20'")

    def rules_edit(value: int) -> tuple[Callable[[], object], str]:
        text = original_rules.replace("  joker: 20\n", f"  joker: {value}\n")
        return (lambda: rules.write_text(text, "utf-8")), f"jokeren {value} point"

    print("    preview: rules.yaml, 6 languages", file=sys.stderr, flush=True)
    edits = [rules_edit(v) for v in (23, 27, 31)[:saves]]
    yaml_saves = measure_saves(project, tmp, "da/scoring.html", "jokeren 20 point", edits)
    rows += saves_rows("preview: save rules.yaml -> da/scoring.html serves the new joker value (6 languages)",
                       yaml_saves, "")  # fmt: skip
    figures["rules_6"] = yaml_saves.__dict__
    return rows, figures


# ---------------------------------------------------------------- render scaling


def example_counts() -> list[int]:
    """The scale's numbers of worked examples, up to the rules' limit (more would be refused)."""
    from rulesdoc.spec.fields import MAX_EXAMPLES

    return [MAX_EXAMPLES // 25, MAX_EXAMPLES // 4, MAX_EXAMPLES]


def project_with_examples(dest: Path, count: int) -> Path:
    import yaml

    project = copy_project(dest)
    data = yaml.safe_load((REPO / "rules.yaml").read_text("utf-8"))
    originals = data["examples"]
    examples = []
    for index in range(count):
        example = dict(originals[index % len(originals)])
        copy = index // len(originals)
        if copy:
            example["id"] = f"{example['id']}-{copy + 1}"
        examples.append(example)
    data["examples"] = examples
    (project / "rules.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
    # As a user would after editing the rules (`make update`): the strict render refuses a stale
    # messages.pot, as check does; the new titles are untranslated, a warning only.
    for command in (["catalog", "extract"], ["catalog", "update"]):
        run([RULESDOC, "--root", str(project), *command], env=child_env(), capture=True)
    return project


RENDER_ONLY = r"""
import sys, tempfile, time
from pathlib import Path
import rulesdoc.cli.main
from rulesdoc.io.project import Project
from rulesdoc.pages.render import Project, write_pages
from rulesdoc.cli.render_checked import render_all
start = time.process_time()
write_pages(render_all(Project.at(Path(sys.argv[1]))), Path(tempfile.mkdtemp()) / "out")
print(time.process_time() - start)
"""


def render_only(runs: int, project: Path) -> float:
    """Best of N fresh processes: CPU time of the render itself (rules, catalogs, templates, pages, files)."""
    return min(float(run([PY, "-c", RENDER_ONLY, str(project)], capture=True).output) for _ in range(runs))


def linear(sizes: list[int], times: list[float]) -> tuple[bool, str]:
    """Linear: growing the input to the largest size costs at most 1.5x what the first step's
    cost per unit predicts (a quadratic cost would show as far more)."""
    (s0, t0), (s1, t1), (s2, t2) = zip(sizes, times, strict=True)
    first = max((t1 - t0) / (s1 - s0), 0.0)
    whole = (t2 - t0) / (s2 - s0)
    ok = whole <= 1.5 * first + 0.0005  # half a millisecond per unit of slack for noise
    return ok, f"{first * 1000:.1f} ms/unit for {s0}->{s1}, {whole * 1000:.1f} ms/unit for {s0}->{s2}"


def scale(runs: int, tmp: Path, projects: Projects) -> tuple[list[Row], Any]:
    rows: list[Row] = []
    figures: dict[str, Any] = {}
    makers: list[tuple[str, list[int], Callable[[int], Path]]] = [
        ("languages", [6, 24, 48], projects.languages),
        ("examples", example_counts(), lambda n: project_with_examples(tmp / f"examples-{n}", n)),
    ]
    for label, sizes, make in makers:
        cli, inner = [], []
        for size in sizes:
            project = make(size)
            cli.append(best(runs, render_cmd(project, tmp / f"out-{label}-{size}")))
            inner.append(render_only(runs, project))
            rows.append(Row(f"render with {size} {label}", f"{cli[-1]}; render itself {seconds(inner[-1])}"))
        ok, slopes = linear(sizes, inner)
        growth = inner[-1] / inner[0]
        what = f"  growth {sizes[0]} -> {sizes[-1]} {label} (render itself, x{sizes[-1] // sizes[0]} input)"
        rows.append(Row(what, f"{growth:.1f}x; {slopes}", "linear", ok))
        if label == "languages":
            whole = cli[-1].cpu
            rows.append(Row("  48 languages, whole CLI run (CPU)", seconds(whole), "< 2 s", whole < 2))
        figures[label] = {
            "sizes": sizes, "cli": [t.__dict__ for t in cli], "render": inner, "growth": growth, "linear": ok,
        }  # fmt: skip
    return rows, figures


# ---------------------------------------------------------------- memory


# ru_maxrss of a child counts the memory of the process it was forked from (Linux keeps the
# high-water mark across exec): measured from the bench itself, every child would look at least
# as big as the bench. So a small launcher forks the measured command and reports its figure
# (for our build: the largest of the main process and its workers).
LAUNCHER = r"""
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def peak_rss(cmd: list[str], cwd: Path = REPO) -> int:
    """Peak RSS (KiB) of one run of ``cmd``, the smallest of two."""
    return min(int(run([PY, "-c", LAUNCHER, *cmd], cwd, capture=True).output) for _ in range(2))


def memory(tmp: Path, projects: Projects) -> tuple[list[Row], Any]:
    baseline = peak_rss([PY, "-c", "pass"])
    floor = peak_rss(FLOOR)
    render = peak_rss(render_cmd(REPO, tmp / "pages"))
    big = projects.languages(48)
    render48 = peak_rss(render_cmd(big, tmp / "pages-48"))
    build = [MKDOCS, "build", "--strict", "--quiet", "-d"]
    site6 = peak_rss([*build, str(tmp / "site-6")], projects.languages(6))
    site48 = peak_rss([*build, str(tmp / "site-48")], big)
    return [
        Row("peak RSS: python -c pass", mib(baseline)),
        Row("peak RSS: floor (import jinja2, babel, yaml)", mib(floor)),
        Row("peak RSS: render, 6 languages", mib(render)),
        Row("peak RSS: render, 48 languages", mib(render48)),
        Row("peak RSS: mkdocs build, 6 languages (largest process)", mib(site6)),
        Row("peak RSS: mkdocs build, 48 languages (largest process)", mib(site48)),
    ], {
        "python_kib": baseline, "floor_kib": floor, "render_kib": render,
        "render48_kib": render48, "site6_kib": site6, "site48_kib": site48,
    }  # fmt: skip


# ---------------------------------------------------------------- report


def machine() -> dict[str, str]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip() or str(os.cpu_count())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": model,
        "nproc": nproc,
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "commit": commit.stdout.strip() + (" + uncommitted changes" if dirty.strip() else ""),
    }


def goal_rows(rows: list[Row]) -> list[Row]:
    """The issue's goals, one line each: every measured row that decides it, PASS only if all pass."""
    summary = []
    for number, text in GOALS.items():
        deciding = [r for r in rows if r.issue_goal == number and r.ok is not None]
        if not deciding:
            summary.append(Row(f"{number}. {text}", "not measured (skipped)"))
            continue
        value = "; ".join(f"{r.what.strip()}: {r.value} ({r.verdict})" for r in deciding)
        summary.append(Row(f"{number}. {text}", value, "", all(r.ok for r in deciding)))
    return summary


def table(rows: list[Row]) -> str:
    header = ("Measure", "Value", "Goal", "")
    cells = [header, *[(r.what, r.value, r.goal, r.verdict) for r in rows]]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(4)).rstrip() for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows: list[Row]) -> list[str]:
    out = ["| Measure | Value | Goal | |", "|---|---|---|---|"]
    for row in rows:
        what = row.what.replace("|", "\\|")
        if what.startswith("  "):
            what = "&nbsp;&nbsp;" + what.strip()
        value = row.value.replace("|", "\\|")
        out.append(f"| {what} | {value} | {row.goal} | {row.verdict} |")
    return out


def markdown(rows: list[Row], info: dict[str, str], load: tuple[str, str], runs: int, took: float) -> str:
    out = [
        "## Benchmark",
        "",
        f"`make bench` (bench/bench.py, best of {runs} fresh processes per timing) on {info['date']}:",
        f"{info['nproc']} × {info['cpu']}, Python {info['python']}, {info['os']}, commit {info['commit']}.",
        f"Load average before / after the run: {load[0]} / {load[1]}; the run took {took / 60:.1f} min.",
        "",
        "Issue 12's goals:",
        "",
        *markdown_table(goal_rows(rows)),
        "",
        "Every figure:",
        "",
        *markdown_table(rows),
        "",
        "Method: each timing is the CPU time (user + system) of a fresh process and every child it",
        "waited for (our build's forked workers included), best of N, with the wall time beside it; CPU",
        "time is the measure because the machine may be shared (see the load averages). The plain build",
        "is one `mkdocs build` of the same rendered pages: English at the docs root, every other",
        "language a folder, the project's mkdocs.yml inherited (Material, search, Markdown extensions,",
        "CSS, the English nav) without the rulesdoc plugin. The 20/24/48-language projects add catalogs",
        "made by `rulesdoc catalog init` and filled with the Danish translations; each builds with",
        "`--strict`. Sizes are `du -sk`. Set-up: `git clone` of the repository, then",
        "`make site`'s own set-up recipe in a fresh clone, wall time, once. Preview: `mkdocs serve`",
        "(RULESDOC_STRICT=false) in a temporary copy; the wall time from writing the file until the page",
        "serves the new text. *Render itself* is the CPU time of `render_all` + `write_pages` inside the",
        "process. Peak RSS is measured through a small launcher (Linux counts the memory of the process a",
        "child was forked from).",
    ]
    return "\n".join(out) + "\n"


SECTIONS = ("site", "setup", "cli", "preview", "scale", "memory")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="best of N for each timing (default 3)")
    parser.add_argument(
        "--results",
        type=Path,
        default=REPO / "bench" / "RESULTS.md",
        help="also write the tables as Markdown here (default bench/RESULTS.md; '-' for none)",
    )
    parser.add_argument("--json", type=Path, help="also write the raw figures as JSON")
    parser.add_argument("--skip", action="append", default=[], choices=SECTIONS, help="leave a section out")
    parser.add_argument(
        "--languages",
        default=",".join(map(str, SITE_SIZES)),
        help="language counts of the site builds (default 6,20,48)",
    )
    args = parser.parse_args()
    site_sizes = tuple(int(n) for n in args.languages.split(","))

    started = time.perf_counter()
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    info = machine()
    print(f"rulesdoc bench: {info['nproc']} x {info['cpu']}, Python {info['python']}, {info['date']}")
    print(f"commit {info['commit']}; load average: {load_before}\n", flush=True)
    rows: list[Row] = []
    figures: dict[str, Any] = {"machine": info}
    with tempfile.TemporaryDirectory(prefix="rulesdoc-bench-") as temporary:
        projects = Projects(Path(temporary) / "projects")
        sections: dict[str, Callable[[Path], tuple[list[Row], Any]]] = {
            "site": lambda tmp: site_builds(args.runs, tmp, projects, site_sizes),
            "setup": setup_from_clone,
            "cli": lambda tmp: cli_vs_floor(args.runs, tmp),
            "preview": lambda tmp: preview(tmp, projects),
            "scale": lambda tmp: scale(args.runs, tmp, projects),
            "memory": lambda tmp: memory(tmp, projects),
        }
        for name, section in sections.items():
            if name in args.skip:
                continue
            print(f"... {name}", file=sys.stderr, flush=True)
            tmp = Path(temporary) / name
            tmp.mkdir()
            section_rows, figures[name] = section(tmp)
            rows += section_rows
    took = time.perf_counter() - started
    load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    figures["load"] = [load_before, load_after]
    print("Issue 12's goals:\n")
    print(table(goal_rows(rows)))
    print("\nEvery figure:\n")
    print(table(rows))
    print(f"\nload average after: {load_after}; the run took {took / 60:.1f} min")
    if str(args.results) != "-":
        args.results.write_text(markdown(rows, info, (load_before, load_after), args.runs, took), "utf-8")
        print(f"wrote {args.results}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
