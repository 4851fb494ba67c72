#!/usr/bin/env python3
"""`make bench`: how fast and how big rendering and the site build are, measured in one run.

Not a test: it prints a table of figures and ratios, each goal marked PASS or MISS.

    render (6 languages)  vs  python -c "import jinja2, babel, yaml"      goal <= 1.5x
    mkdocs build (plugin) vs  plain mkdocs builds of the rendered pages    goal <= 1.2x
    render with 6/24/48 languages and 4/40/400 examples                  goal linear, 48 languages < 2 s
    live preview: save rules.yaml -> `mkdocs serve` serves the new number
    peak RSS of a render

Every timing is the best of N runs of a fresh subprocess, as CPU time (user + system, from
wait4) with the wall time beside it: CPU time barely moves when other work shares the machine,
wall time does; ratios and goals use CPU time (the live preview is wall time by nature). Children
write their bytecode to a
cache outside the repository (the environment may set PYTHONDONTWRITEBYTECODE, which would make
every child compile the package again while the floor's libraries have theirs installed).

    .venv/bin/python bench/bench.py [--runs N] [--results bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
MKDOCS = str(Path(PY).with_name("mkdocs"))
PYCACHE = Path(tempfile.gettempdir()) / "rulesdoc-bench-pycache"
EPOCH = "1700000000"
PROJECT_FILES = ("rules.yaml", "templates", "locales", "babel.cfg")
SITE_FILES = (*PROJECT_FILES, "mkdocs.yml", "docs", "overrides")
FLOOR = [PY, "-c", "import jinja2, babel, yaml"]
# Codes for pseudo catalogs (Danish text under another language's code): well-covered CLDR locales.
PSEUDO_CODES = (
    "de fr es it sv nb fi pl cs sk sl hr sr bg ro hu el tr ru uk lt lv et is ga cy ca eu gl sq mk "
    "bs ar he fa ur bn ta te mr gu kn ml th vi id sw zu af ja ko zh"
).split()


# ---------------------------------------------------------------- running things


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(PYCACHE), SOURCE_DATE_EPOCH=EPOCH, NO_MKDOCS_2_WARNING="1")
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


def run(cmd: list[str], cwd: Path = REPO, **env: str) -> tuple[Timing, int]:
    """CPU and wall time (s) and peak RSS (KiB) of one subprocess."""
    start = time.perf_counter()
    process = subprocess.Popen(
        cmd, cwd=cwd, env=child_env(**env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{stderr.decode(errors='replace')}")
    return Timing(usage.ru_utime + usage.ru_stime, elapsed), usage.ru_maxrss


def best(runs: int, cmd: list[str], cwd: Path = REPO, **env: str) -> Timing:
    run(cmd, cwd, **env)  # warm-up: bytecode cache, page cache
    timings = [run(cmd, cwd, **env)[0] for _ in range(runs)]
    return Timing(min(t.cpu for t in timings), min(t.wall for t in timings))


def render_cmd(root: Path, out: Path, *extra: str) -> list[str]:
    return [PY, "-m", "generator", "--root", str(root), "render", "--out", str(out), *extra]


def copy_project(dest: Path, names: tuple[str, ...] = PROJECT_FILES) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in names:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        elif source.exists():
            shutil.copy2(source, dest / name)
    return dest


@dataclass
class Row:
    what: str
    value: str
    goal: str = ""
    ok: bool | None = None

    @property
    def verdict(self) -> str:
        return "" if self.ok is None else ("PASS" if self.ok else "MISS")


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


# ---------------------------------------------------------------- 1. render vs the floor

STAGES = r"""
import json, sys, tempfile, time
from pathlib import Path
time.perf_counter = time.process_time  # CPU time of this process, as the other figures
t = [time.perf_counter()]
import generator.cli  # what `python -m generator` imports before it renders
t.append(time.perf_counter())
from generator.i18n import discover_languages
from generator.render import (
    Project, make_environment, page_templates, render_language, translation_status, write_pages,
)
from generator.rules import load_rules
project = Project.at(Path(sys.argv[1]))
rules = load_rules(project.rules); t.append(time.perf_counter())
languages = discover_languages(project.locales)
status = translation_status(project.locales, languages); t.append(time.perf_counter())
names = page_templates(project.templates); env = make_environment(project.templates)
for name in names: env.get_template(name)
t.append(time.perf_counter())
pages = [
    page for language in languages
    for page in render_language(env, rules, language, names, project.templates, True, status)
]
t.append(time.perf_counter())
write_pages(pages, Path(tempfile.mkdtemp())); t.append(time.perf_counter())
keys = ["import generator.cli", "load rules.yaml", "read catalogs + locale data", "compile templates",
        "render pages", "write files"]
print(json.dumps(dict(zip(keys, [b - a for a, b in zip(t, t[1:])]))))
"""


def render_vs_floor(runs: int, tmp: Path) -> tuple[list[Row], dict[str, Any]]:
    floor = best(runs, FLOOR)
    interpreter = best(runs, [PY, "-c", "pass"])
    render = best(runs, render_cmd(REPO, tmp / "pages"))
    imports = best(runs, [PY, "-c", "import generator.cli"])
    stages: dict[str, float] = {}
    for _ in range(runs):  # best of N per stage, in a fresh process each time
        out = subprocess.run(
            [PY, "-c", STAGES, str(REPO)],
            cwd=REPO, env=child_env(), capture_output=True, text=True, check=True,
        )  # fmt: skip
        for key, value in json.loads(out.stdout).items():
            stages[key] = min(value, stages.get(key, value))
    ratio = render / floor
    wall_ratio = render.wall / floor.wall
    rows = [
        Row("floor: python -c 'import jinja2, babel, yaml'", str(floor)),
        Row("render, 6 languages x 3 pages (CLI, fresh process)", str(render)),
        Row("  ratio render / floor", f"{ratio:.2f}x (wall {wall_ratio:.2f}x)", "<= 1.5x", ratio <= 1.5),
        Row("  of which: interpreter start", str(interpreter)),
    ]
    rows += [Row(f"  of which: {key}", seconds(value)) for key, value in stages.items()]
    rest = render.cpu - interpreter.cpu - sum(stages.values())
    rows.append(Row("  of which: the rest (argument parsing, printing, interpreter exit)", seconds(rest)))
    rows.append(Row("  (python -c 'import generator.cli', whole process)", str(imports)))
    return rows, {
        "floor": floor.__dict__, "render": render.__dict__, "ratio": ratio, "wall_ratio": wall_ratio,
        "stages": stages, "imports": imports.__dict__, "interpreter": interpreter.__dict__,
    }  # fmt: skip


# ---------------------------------------------------------------- 2. site build vs plain MkDocs

PLAIN_BUILD = r"""
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
for path in sys.argv[1:]:
    build(load_config(path))
"""


def plain_configs(tmp: Path) -> list[Path]:
    """Render every language's pages, and a plain MkDocs config per language: the repository's
    mkdocs.yml (INHERIT) with the rendered pages as docs_dir and the search plugin only."""
    import yaml

    sys.path.insert(0, str(REPO))
    from generator.site import search_language

    pages = tmp / "pages"
    run(render_cmd(REPO, pages))
    configs = []
    for lang_dir in sorted(p for p in pages.iterdir() if p.is_dir()):
        code = lang_dir.name
        shutil.copytree(REPO / "docs", lang_dir, dirs_exist_ok=True)  # assets/rulesdoc.css
        config = {
            "INHERIT": str(REPO / "mkdocs.yml"),
            "docs_dir": str(lang_dir),
            "site_dir": str(tmp / "plain-site" / code),
            "theme": {"language": code},
            "plugins": [{"search": {"lang": [search_language(code)]}}],  # lists replace, not merge
            "watch": [],
        }
        path = tmp / f"mkdocs-{code}.yml"
        path.write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
        configs.append(path)
    return configs


def site_vs_plain(runs: int, tmp: Path) -> tuple[list[Row], dict[str, Any]]:
    configs = plain_configs(tmp)
    full = best(runs, [MKDOCS, "build", "--strict", "--quiet", "-d", str(tmp / "full-site")])
    plain = best(runs, [PY, "-c", PLAIN_BUILD, *map(str, configs)])
    ratio = full / plain
    wall_ratio = full.wall / plain.wall
    return [
        Row(f"mkdocs build (rulesdoc plugin, {len(configs)} languages)", str(full)),
        Row(f"plain mkdocs builds of the rendered pages ({len(configs)} configs, one process)", str(plain)),
        Row("  ratio full / plain", f"{ratio:.2f}x (wall {wall_ratio:.2f}x)", "<= 1.2x", ratio <= 1.2),
    ], {
        "full": full.__dict__, "plain": plain.__dict__, "ratio": ratio, "wall_ratio": wall_ratio,
        "languages": len(configs),
    }  # fmt: skip


# ---------------------------------------------------------------- 3. scale


def pseudo_catalog(danish: str, code: str) -> str:
    """The Danish catalog under another code: its Language and Plural-Forms headers fixed, every
    plural message given as many forms as the language has."""
    from babel import Locale

    from generator.i18n import expected_plural_forms

    plural = expected_plural_forms(Locale.parse(code))
    forms = int(re.search(r"nplurals=(\d+)", plural).group(1))  # type: ignore[union-attr]
    text = danish.replace('"Language: da\\n"', f'"Language: {code}\\n"')
    text = re.sub(r'"Plural-Forms: [^"]*"', lambda _: f'"Plural-Forms: {plural}\\n"', text)

    def widen(match: re.Match[str]) -> str:
        first, other = match.group(1), match.group(2)
        return "".join(f"msgstr[{i}] {first if i == 0 else other}\n" for i in range(forms))

    return re.sub(r'msgstr\[0\] (".*")\nmsgstr\[1\] (".*")\n', widen, text)


def project_with_languages(dest: Path, count: int) -> Path:
    project = copy_project(dest)
    locales = project / "locales"
    existing = sorted(p.parent.parent.name for p in locales.glob("*/LC_MESSAGES/messages.po"))
    needed = count - 1 - len(existing)  # English needs no catalog
    danish = (locales / "da" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
    codes = [code for code in PSEUDO_CODES if code not in existing][:needed]
    assert len(codes) == max(needed, 0), f"not enough pseudo codes for {count} languages"
    for code in codes:
        path = locales / code / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True)
        path.write_text(pseudo_catalog(danish, code), "utf-8")
    return project


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
    return project


RENDER_ONLY = r"""
import sys, tempfile, time
from pathlib import Path
import generator.cli
from generator.render import Project, render_all, write_pages
start = time.process_time()
write_pages(render_all(Project.at(Path(sys.argv[1]))), Path(tempfile.mkdtemp()))
print(time.process_time() - start)
"""


def render_only(runs: int, project: Path) -> float:
    """Best of N fresh processes: CPU time of the render itself (rules, catalogs, templates, pages, files)."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [PY, "-c", RENDER_ONLY, str(project)], env=child_env(), capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout))
    return min(times)


def linear(sizes: list[int], times: list[float]) -> tuple[bool, str]:
    """Linear: growing the input to the largest size costs at most 1.5x what the first step's
    cost per unit predicts (a quadratic cost would show as far more)."""
    (s0, t0), (s1, t1), (s2, t2) = zip(sizes, times, strict=True)
    first = max((t1 - t0) / (s1 - s0), 0.0)
    whole = (t2 - t0) / (s2 - s0)
    ok = whole <= 1.5 * first + 0.0005  # half a millisecond per unit of slack for noise
    return ok, f"{first * 1000:.1f} ms/unit for {s0}->{s1}, {whole * 1000:.1f} ms/unit for {s0}->{s2}"


def scale(runs: int, tmp: Path) -> tuple[list[Row], dict[str, Any]]:
    rows: list[Row] = []
    figures: dict[str, Any] = {}
    for label, sizes, make in (
        ("languages", [6, 24, 48], project_with_languages),
        ("examples", [4, 40, 400], project_with_examples),
    ):
        cli, inner = [], []
        for size in sizes:
            project = make(tmp / f"{label}-{size}", size)
            cli.append(best(runs, render_cmd(project, project / "out")))
            inner.append(render_only(runs, project))
            value = f"{cli[-1]}; render itself {seconds(inner[-1])}"
            rows.append(Row(f"render with {size} {label}", value))
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


# ---------------------------------------------------------------- 4. live preview

JOKER_ROW = r"<td>Joker</td>\s*<td[^>]*>{}</td>"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def wait_for(predicate: Callable[[], bool], timeout: float, poll: float = 0.05) -> float | None:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate():
            return time.perf_counter() - start
        time.sleep(poll)
    return None


def live_preview(tmp: Path, changes: int = 3) -> tuple[list[Row], dict[str, Any]]:
    project = copy_project(tmp / "serve", SITE_FILES)
    rules = project / "rules.yaml"
    original = rules.read_text("utf-8")
    assert "  joker: 20\n" in original
    port = free_port()
    url = f"http://127.0.0.1:{port}/da/scoring.html"
    log = (tmp / "serve.log").open("wb")
    server = subprocess.Popen(
        [MKDOCS, "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project, env=child_env(RULESDOC_STRICT="false"),
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    latencies = []
    try:
        started = wait_for(lambda: re.search(JOKER_ROW.format(20), fetch(url)) is not None, 300, 0.5)
        if started is None:
            raise SystemExit(f"bench: mkdocs serve did not serve {url}; see {tmp / 'serve.log'}")
        for value in [23, 27, 31][:changes]:
            time.sleep(1.5)  # let the watcher settle after the previous build
            start = time.perf_counter()
            rules.write_text(original.replace("  joker: 20\n", f"  joker: {value}\n"), "utf-8")
            pattern = re.compile(JOKER_ROW.format(value))
            seen = wait_for(lambda pattern=pattern: pattern.search(fetch(url)) is not None, 120)
            if seen is None:
                raise SystemExit(f"bench: joker {value} never appeared at {url}; see {tmp / 'serve.log'}")
            latencies.append(time.perf_counter() - start)
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server we started, and only its group
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
    return [
        Row("live preview: save rules.yaml -> new joker value served (da)",
            f"best {seconds(min(latencies))}, worst {seconds(max(latencies))} ({len(latencies)} saves)"),
        Row("  startup of mkdocs serve (first page served)", seconds(started)),
    ], {"latencies": latencies, "startup": started}  # fmt: skip


# ---------------------------------------------------------------- 5. memory


# ru_maxrss of a child counts the memory of the process it was forked from (Linux keeps the
# high-water mark across exec): measured from the bench itself, every child would look at least
# as big as the bench. So a small launcher forks the measured command and reports its figure.
LAUNCHER = r"""
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def peak_rss(cmd: list[str], cwd: Path = REPO) -> int:
    """Peak RSS (KiB) of one run of ``cmd``, the smallest of two."""
    sizes = []
    for _ in range(2):
        out = subprocess.run(
            [PY, "-c", LAUNCHER, *cmd], cwd=cwd, env=child_env(), capture_output=True, text=True
        )
        if out.returncode != 0:
            raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{out.stderr}")
        sizes.append(int(out.stdout))
    return min(sizes)


def memory(tmp: Path) -> tuple[list[Row], dict[str, Any]]:
    baseline = peak_rss([PY, "-c", "pass"])
    floor = peak_rss(FLOOR)
    render = peak_rss(render_cmd(REPO, tmp / "mem-pages"))
    big = project_with_languages(tmp / "mem-48", 48)
    render48 = peak_rss(render_cmd(big, big / "out"))
    site = peak_rss([MKDOCS, "build", "--strict", "--quiet", "-d", str(tmp / "mem-site")])

    def mib(kib: int) -> str:
        return f"{kib / 1024:.0f} MiB"

    return [
        Row("peak RSS: python -c pass", mib(baseline)),
        Row("peak RSS: floor (import jinja2, babel, yaml)", mib(floor)),
        Row("peak RSS: render, 6 languages", mib(render)),
        Row("peak RSS: render, 48 languages", mib(render48)),
        Row("peak RSS: mkdocs build, 6 languages", mib(site)),
    ], {
        "python_kib": baseline, "floor_kib": floor, "render_kib": render,
        "render48_kib": render48, "site_kib": site,
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


def table(rows: list[Row]) -> str:
    header = ("Measure", "Value", "Goal", "")
    cells = [header, *[(r.what, r.value, r.goal, r.verdict) for r in rows]]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(4)).rstrip() for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown(rows: list[Row], info: dict[str, str], load: tuple[str, str], runs: int) -> str:
    out = [
        "## Benchmark",
        "",
        f"`make bench` (bench/bench.py, best of {runs} fresh processes per timing) on {info['date']}:",
        f"{info['nproc']} × {info['cpu']}, Python {info['python']}, {info['os']}, commit {info['commit']}.",
        f"Load average before / after the run: {load[0]} / {load[1]}.",
        "",
        "| Measure | Value | Goal | |",
        "|---|---|---|---|",
    ]
    for row in rows:
        what = row.what.replace("|", "\\|")
        if what.startswith("  "):
            what = "&nbsp;&nbsp;" + what.strip()
        out.append(f"| {what} | {row.value} | {row.goal} | {row.verdict} |")
    out += [
        "",
        "Method: each timing is the CPU time (user + system) of a fresh process, best of N, with the",
        "wall time beside it; CPU time is the measure because the machine may be shared (see the load",
        "averages). Children cache their bytecode outside the repository. *Render itself* is the CPU time",
        "of `render_all` + `write_pages` inside the process, without interpreter start and imports.",
        "Plain builds: one process building, per language, a plain MkDocs config of the rendered pages",
        "(no rulesdoc plugin). Live preview: `mkdocs serve` in a temporary copy; the time from writing",
        "rules.yaml with a new joker value until `/da/scoring.html` serves it. Peak RSS is measured",
        "through a small launcher (Linux counts the memory of the process a child was forked from).",
        "Pseudo languages for the scale runs are the Danish catalog under other CLDR locale codes.",
    ]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="best of N for each timing (default 5)")
    parser.add_argument("--site-runs", type=int, default=5, help="best of N for site builds (default 5)")
    parser.add_argument("--results", type=Path, help="also write the table as Markdown to this file")
    parser.add_argument("--json", type=Path, help="also write the raw figures as JSON")
    parser.add_argument(
        "--skip", action="append", default=[], choices=["render", "site", "scale", "serve", "memory"]
    )
    args = parser.parse_args()

    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    info = machine()
    print(f"rulesdoc bench: {info['nproc']} x {info['cpu']}, Python {info['python']}, {info['date']}")
    print(f"load average: {load_before}\n", flush=True)
    rows: list[Row] = []
    figures: dict[str, Any] = {"machine": info}
    sections: list[tuple[str, Callable[[Path], tuple[list[Row], dict[str, Any]]]]] = [
        ("render", lambda tmp: render_vs_floor(args.runs, tmp)),
        ("site", lambda tmp: site_vs_plain(args.site_runs, tmp)),
        ("scale", lambda tmp: scale(args.runs, tmp)),
        ("serve", live_preview),
        ("memory", memory),
    ]
    with tempfile.TemporaryDirectory(prefix="rulesdoc-bench-") as temporary:
        for name, section in sections:
            if name in args.skip:
                continue
            print(f"... {name}", file=sys.stderr, flush=True)
            tmp = Path(temporary) / name
            tmp.mkdir()
            section_rows, figures[name] = section(tmp)
            rows += section_rows
    load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    figures["load"] = [load_before, load_after]
    print(table(rows))
    print(f"\nload average after: {load_after}")
    if args.results:
        args.results.write_text(markdown(rows, info, (load_before, load_after), args.runs), "utf-8")
        print(f"wrote {args.results}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
