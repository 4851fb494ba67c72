#!/usr/bin/env python3
"""`make bench`, the calculator's part (issue 30's goal "light"): what it costs the site build, and
how fast the page answers a card entered. Not a test: figures and ratios, appended to
bench/RESULTS.md (this script's section replaced, the rest of the file kept).

    (a) build   our `mkdocs build --strict` of the project / of the same project without the
                calculator (its partial templates/_calculator.j2 removed and `catalog extract`,
                `catalog update` run, the messages only it had dropped from the catalogs, as a
                project that never had it): CPU of the process tree, runs interleaved
                (with, without; without, with; ...), so that a change in the machine's load hits both.
                Judged twice: with the user's cache kept from the run before (every build after a
                machine's first) and with none (RULESDOC_NO_CACHE=1: a fresh machine's first build,
                which compiles the partial). Goal <= 1.05x on the instructions each build executes,
                in one process (RULESDOC_WORKERS=1), counted by Valgrind's Cachegrind: a count, not
                a clock, the same from one run to the next to about one in ten million, where the
                CPU time of one build spreads by 10 to 35 % on a shared machine (the way CodSpeed and
                iai-callgrind judge in CI). The CPU-time pairs of the usual, forked build are
                reported beside it.
                The scripts every build copies (the calculator's modules and the classic script made of them,
                generator/site/assets.py) are in both builds: their making is timed apart, in this
                process, and so is the calculator's share of the render (its partial loaded or
                compiled, its data made), steadier than the builds' ratio.
    (b) entry   the built Danish scoring page in headless Chromium, over http from 127.0.0.1: a
                card chosen and "Add" pressed, to the result redrawn and laid out (the click's
                handler, then a forced layout), N entries over the seats of a six-player round.
                Median and p95 of the main thread's CPU time (and of the wall time), against
                one frame at 60 Hz (16.7 ms).

    .venv/bin/python bench/calculator.py [--runs N] [--entries N] [--results bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import (  # noqa: E402
    EPOCH,
    MKDOCS,
    PY,
    REPO,
    RULESDOC,
    SITE_FILES,
    USER_CACHE,
    child_env,
    copy_project,
    run,
    seconds,
)
from rulesdoc.site.local_server import serving  # the screenshots' local server: same site, same way  # noqa: E402

FRAME_MS = 1000 / 60
GOAL_RATIO = 1.05
BEGIN = "<!-- bench/calculator.py: begin -->"
END = "<!-- bench/calculator.py: end -->"
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")


# ---------------------------------------------------------------- (a) the site build


def without_calculator(project: Path) -> None:
    """The project as if it never had the calculator: no partial, its messages gone from the
    POT and, obsolete entries dropped, from every catalog."""
    (project / "templates" / "_calculator.j2").unlink()
    for step in ("extract", "update"):
        run([PY, "-m", "rulesdoc", "catalog", step], cwd=project)
    for po in (project / "locales").glob("*/LC_MESSAGES/messages.po"):
        blocks = po.read_text("utf-8").split("\n\n")
        kept = [block for block in blocks if not _obsolete(block)]
        po.write_text("\n\n".join(kept), "utf-8")


def _obsolete(block: str) -> bool:
    """A catalog entry that is only comments and ``#~`` lines (what `catalog update` keeps)."""
    lines = block.strip().splitlines()
    return any(line.startswith("#~") for line in lines) and all(line.startswith("#") for line in lines)


def build_cmd(out: Path) -> list[str]:
    return [MKDOCS, "build", "--strict", "--quiet", "-d", str(out)]


# RULESDOC_NO_CACHE: the cache (compiled templates, extractions, catalogs) kept from the run before,
# none, or what `rulesdoc check` left in an empty one (the publishing workflow's order on a fresh
# runner: check, then build; the theme is compiled by the build).
CACHES = {"kept": "0", "none": "1", "check": "0"}


def before_build(cache: str, project: Path, env: dict[str, str]) -> None:
    """The cache as the case has it before each build: for "check", emptied, then `rulesdoc check`."""
    if cache == "check":
        shutil.rmtree(USER_CACHE, ignore_errors=True)
        run([RULESDOC, "--root", str(project), "check"], cwd=project, env=env)


VALGRIND = shutil.which("valgrind")
# Cachegrind counts the instructions each process executes (no cache simulated: a count alone).
# A process that execs another program gets a Valgrind of its own (--trace-children), counting
# from zero; a forked one would start from its parent's count, so the counted build runs in one
# process (RULESDOC_WORKERS=1: no helper, no language workers): the build's own work, without
# what the forked build's helper and workers add to it.
CACHEGRIND = (
    "--tool=cachegrind",
    "--cache-sim=no",
    "--trace-children=yes",
    "--cachegrind-out-file=/dev/null",
)
# Hash randomisation changes the order of sets and dicts, and so the work: fixed for the count.
COUNTED = {"PYTHONHASHSEED": "0", "RULESDOC_WORKERS": "1"}


def measure_build(tmp: Path, runs: int, counted: bool) -> dict[str, Any]:
    with_ = copy_project(tmp / "with", SITE_FILES)
    without = copy_project(tmp / "without", SITE_FILES)
    without_calculator(without)
    found: dict[str, Any] = {}
    for cache, off in CACHES.items():
        env = child_env(SOURCE_DATE_EPOCH=EPOCH, RULESDOC_NO_CACHE=off)
        cpu: dict[str, list[float]] = {"with": [], "without": []}
        for project in (with_, without):  # warm-up: bytecode, page and template caches
            before_build(cache, project, env)
            run(build_cmd(project / "site"), cwd=project, env=env)
        for index in range(runs):
            say = f"    calculator: build {index + 1}/{runs}, cache: {cache}"
            print(say, file=sys.stderr, flush=True)
            order = (("with", with_), ("without", without))
            for name, project in order if index % 2 == 0 else order[::-1]:  # ABBA: no order favoured
                shutil.rmtree(project / "site", ignore_errors=True)
                before_build(cache, project, env)
                cpu[name].append(run(build_cmd(project / "site"), cwd=project, env=env).timing.cpu)
        pairs = [a / b for a, b in zip(cpu["with"], cpu["without"], strict=True)]
        found[cache] = {"cpu": cpu, "pairs": pairs}
        if VALGRIND and counted:
            env |= COUNTED
            # One build in the counted mode first, as before the timed ones (with no helper, the
            # one process keeps the theme's compiled set in the cache as the helper does).
            for project in (with_, without):
                shutil.rmtree(project / "site", ignore_errors=True)
                before_build(cache, project, env)
                run(build_cmd(project / "site"), cwd=project, env=env)
            counts = found[cache]["instructions"] = {}
            for name, project in (("with", with_), ("without", without)):
                before_build(cache, project, env)
                counts[name] = instructions(project, env, tmp / f"counted-{cache}-{name}")
    assert "rd-calc-data" in (with_ / "site" / "da" / "scoring.html").read_text("utf-8")
    assert "rd-calc-data" not in (without / "site" / "da" / "scoring.html").read_text("utf-8")
    work, languages = render_work_ms(with_)
    found |= {"assets_ms": assets_ms(), "site": with_ / "site", "compile_ms": compile_ms(with_)}
    return found | {"render_ms": work, "languages": languages}


def instructions(project: Path, env: dict[str, str], logs: Path) -> int:
    """The instructions one build executes, every process of it, under Cachegrind (about 30x
    slower than the build). Each process must have reported its count, and none may be a fork of
    another (it would count its parent's work again): either stops the bench."""
    logs.mkdir()
    shutil.rmtree(project / "site", ignore_errors=True)
    command = [
        VALGRIND or "valgrind",
        *CACHEGRIND,
        f"--log-file={logs}/valgrind.%p",
        *build_cmd(project / "site"),
    ]
    print(f"    calculator: counting one build's instructions, {project.name}", file=sys.stderr, flush=True)
    run(command, cwd=project, env=env)
    processes = {log: _line(log, "I +refs").replace(",", "") for log in logs.glob("valgrind.*")}
    said = "; ".join(
        f"{log.name} {_line(log, 'Command')!r}: {count}" for log, count in sorted(processes.items())
    )
    if not processes or not all(count.isdigit() for count in processes.values()):
        raise SystemExit(f"bench: a process of the build under Cachegrind reported no count: {said}")
    commands = [_line(log, "Command") for log in processes]
    if len(set(commands)) != len(commands):
        raise SystemExit(f"bench: the counted build forked (set RULESDOC_WORKERS=1): {said}")
    return sum(int(count) for count in processes.values())


def _line(log: Path, name: str) -> str:
    """A line of a Valgrind log (``==PID== Name: value``), its value; ``name`` a pattern."""
    found = re.search(rf"^==\d+== {name}: (.*)$", log.read_text("utf-8", "replace"), re.M)
    return found.group(1).strip() if found else ""


def compile_ms(project: Path, times: int = 5) -> float:
    """The partial compiled from its text (a first build's, with no cache), best of ``times``."""
    from rulesdoc.pages.environment import make_environment

    env = make_environment(project / "templates")
    source = (project / "templates" / "_calculator.j2").read_text("utf-8")
    took = []
    for _ in range(times):
        start = time.process_time()
        env.compile(source, "_calculator.j2", str(project / "templates" / "_calculator.j2"))
        took.append(time.process_time() - start)
    return min(took) * 1000


def render_work_ms(project: Path, times: int = 3) -> tuple[float, int]:
    """The calculator's work in the render of every language, in this process: its partial
    loaded (kept compiled from the run before; once per build: the language workers are forked
    after the source language's render) and its data made for each language; best of ``times``
    fresh workspaces. The milliseconds, and the number of languages."""
    from rulesdoc.io.project import Project
    from rulesdoc.pages import render

    made = render.calculator_data
    took: list[float] = []

    def timed(*args: Any) -> str | None:
        start = time.process_time()
        try:
            return made(*args)
        finally:
            took.append(time.process_time() - start)

    totals, languages = [], 0
    render.calculator_data = timed  # type: ignore[assignment]
    try:
        for _ in range(times):
            paths = Project(project / "rules.yaml", project / "templates", project / "locales", project)
            workspace = render.Workspace.load(paths)
            took.clear()
            workspace.render(workspace.languages)
            totals.append(sum(took))
            languages = len(workspace.languages)
    finally:
        render.calculator_data = made
    return min(totals) * 1000, languages


def assets_ms(times: int = 20) -> float:
    """The making of the calculator's files (the classic script included), best of ``times``."""
    from rulesdoc.site import assets

    took = []
    for _ in range(times):
        start = time.perf_counter()
        assets.site_files()
        took.append(time.perf_counter() - start)
    return min(took) * 1000


# ---------------------------------------------------------------- (b) a card entered, in Chromium

# Cards for the entries: every kind twice at most in the round (two decks: 106 cards), over five
# seats; the first ``WARM`` entries (the scripts' first runs, compiled then) are not counted.
WARM = 10
MAX_ENTRIES = 106 - WARM
SEATS = 5
# One entry, a frame after the last: a card chosen, Add clicked (the handler draws the hand and
# the result and writes the address), then a forced style and layout of the result, as the
# next frame needs. Wall time, from the page's clock.
ENTRY_JS = """async ({seat, kind}) => {
    await new Promise(requestAnimationFrame);
    document.getElementById(`rd-calc-card-${seat}`).value = kind;
    const add = document.getElementById(`rd-calc-add-${seat}`);
    const result = document.getElementById("rd-calc-result");
    const start = performance.now();
    add.click();
    const drawn = performance.now();
    result.offsetHeight;
    return {took: performance.now() - start, handler: drawn - start};
}"""
# The main thread's CPU time in script, style and layout (Chromium's metrics in thread ticks):
# what a frame must hold, apart from what other processes on the machine take from it. An upper
# bound: between two readings it also counts the measuring call's own script and whatever
# else the page ran (Material's handlers).
WORK = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * len(ordered)))]


def measure_entry(site: Path, entries: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    debian = str(DEBIAN_CHROMIUM) if DEBIAN_CHROMIUM.is_file() else None  # else Playwright's own
    chromium = os.environ.get("RULESDOC_CHROMIUM") or debian
    wall: list[float] = []
    handler: list[float] = []
    cpu: list[float] = []
    with serving(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + "da/scoring.html", wait_until="networkidle")
        page.locator("#rd-calc form").wait_for()
        page.select_option("#rd-calc-players", str(SEATS + 1))
        kinds = page.eval_on_selector_all("#rd-calc-card-1 option", "options => options.map(o => o.value)")
        metrics = page.context.new_cdp_session(page)
        metrics.send("Performance.enable", {"timeDomain": "threadTicks"})

        def work() -> float:
            found = metrics.send("Performance.getMetrics")["metrics"]
            return sum(metric["value"] for metric in found if metric["name"] in WORK)

        for index in range(WARM + entries):
            before = work()
            took = page.evaluate(
                ENTRY_JS, {"seat": 1 + index % SEATS, "kind": kinds[index // 2 % len(kinds)]}
            )
            spent = work() - before
            if index >= WARM:
                wall.append(took["took"])
                handler.append(took["handler"])
                cpu.append(spent * 1000)
        points = page.locator("#rd-calc-result .rd-calc-points").all_inner_texts()
        version = browser.version
        browser.close()
    assert len(points) == SEATS + 1, points  # the round scored, not refused
    return {
        "median": statistics.median(wall),
        "p95": percentile(wall, 0.95),
        "max": max(wall),
        "handler": statistics.median(handler),
        "cpu_median": statistics.median(cpu),
        "cpu_p95": percentile(cpu, 0.95),
        "entries": entries,
        "browser": version,
    }


# ---------------------------------------------------------------- the report


def report(build: dict[str, Any] | None, entry: dict[str, Any] | None, runs: int) -> str:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    lines = [
        BEGIN,
        "## The calculator (issue 30)",
        "",
        f"`bench/calculator.py` on {when}, commit {commit.stdout.strip() or '?'}, load average {load}.",
        "",
        "| Measure | Value | Goal | |",
        "|---|---|---|---|",
    ]
    if build is not None:
        for cache, said in (("kept", "the cache kept from the run before"),
                            ("check", "after `rulesdoc check` on an empty cache (the publishing workflow)"),
                            ("none", "no cache (a machine's first build)")):  # fmt: skip
            with_, without = build[cache]["cpu"]["with"], build[cache]["cpu"]["without"]
            pairs = build[cache]["pairs"]
            ratio = statistics.median(pairs)
            counted = build[cache].get("instructions")
            if counted:  # the judge: a count does not move with the machine's load
                share = counted["with"] / counted["without"]
                lines.append(
                    f"| site build instructions (Cachegrind, the build in one process), with / without the "
                    f"calculator, {said} | {counted['with'] / 1e9:.3f} G / {counted['without'] / 1e9:.3f} G "
                    f"= {share:.4f}x | <= {GOAL_RATIO}x | {'PASS' if share <= GOAL_RATIO else 'MISS'} |"
                )
            judged = f" | <= {GOAL_RATIO}x | {'PASS' if ratio <= GOAL_RATIO else 'MISS'} |"
            lines += [
                f"| {'&nbsp;&nbsp;' if counted else ''}site build CPU, with / without the calculator, "
                f"{said}: the median of {runs} interleaved pairs' ratios | {ratio:.3f}x"
                + (" |  |  |" if counted else judged),
                f"| &nbsp;&nbsp;the pairs' lowest and highest; the best runs, with / without | "
                f"{min(pairs):.3f}x, {max(pairs):.3f}x; {seconds(min(with_))} / {seconds(min(without))} "
                f"= {min(with_) / min(without):.3f}x |  |  |",
                f"| &nbsp;&nbsp;noise: the slowest / the fastest run of the same build, with; without | "
                f"{max(with_) / min(with_):.3f}x; {max(without) / min(without):.3f}x |  |  |",
            ]
        best = min(build["kept"]["cpu"]["with"])
        lines += [
            f"| making the calculator's files (in both builds), in-process | "
            f"{build['assets_ms']:.1f} ms |  |  |",
            f"| the calculator's own work in a build, in-process (its partial loaded, its data in "
            f"{build['languages']} languages) / the build's best CPU, the cache kept | "
            f"{build['render_ms']:.0f} ms / {seconds(best)} = {build['render_ms'] / 1000 / best:.1%} |  |  |",
            f"| &nbsp;&nbsp;with no cache, the partial compiled too | {build['compile_ms']:.0f} ms |  |  |",
        ]
    if entry is not None:
        ok = entry["cpu_p95"] <= FRAME_MS
        lines += [
            f"| a card entered -> the result redrawn and laid out, Chromium {entry['browser']}, "
            f"{entry['entries']} entries: the main thread's CPU in script, style and layout, "
            f"median; p95 | {entry['cpu_median']:.2f} ms; {entry['cpu_p95']:.2f} ms | "
            f"p95 <= one frame, {FRAME_MS:.1f} ms | {'PASS' if ok else 'MISS'} |",
            f"| &nbsp;&nbsp;the same, wall time (with whatever else the machine runs): median; p95; "
            f"slowest | {entry['median']:.2f} ms; {entry['p95']:.2f} ms; {entry['max']:.2f} ms |  |  |",
            f"| &nbsp;&nbsp;of which the click's handler (scoring, drawing, the address), wall, median | "
            f"{entry['handler']:.2f} ms |  |  |",
        ]
    lines += [
        "",
        "Method: (a) the project copied twice, one without `templates/_calculator.j2` and with the messages "
        "only it had gone from the catalogs; `mkdocs build --strict` of each; all of it once with the cache "
        "kept between runs (compiled templates, extractions, catalogs; the bench's own folder), once with "
        "none kept, and once after `rulesdoc check` on an emptied cache before each build (the publishing "
        "workflow: check, then build, on a fresh runner). The goal is judged on the instructions one build "
        "of each executes in one process (RULESDOC_WORKERS=1: no helper, no language workers, whose forks "
        "would count their parent's work again; the build's own work, without what they add to it), counted "
        "by Valgrind's Cachegrind with a fixed hash seed: two counts of the same build differ by about one "
        "in ten million, where its CPU time spreads by 10 to 35 % on this shared machine. Instructions are "
        "not seconds (a cache miss costs more than an add), but both builds run the same kind of code, the "
        "Python interpreter's, so their ratio is the ratio of their work. Beside it, the CPU time of the "
        "process tree, one build after the other in every round (with first, then without first, in turn), "
        "after a warm-up build of each, judged on the median of the pairs' ratios where Valgrind is not "
        "installed; the spread of one build's runs shows how far one such figure moves. (b) the Danish "
        "scoring page served over http, six players; each entry chooses a card and clicks Add, timed from "
        "the click to a forced layout of the result (script, style and layout; paint is not counted), one "
        "entry a frame, the first ten not counted. The goal is judged on the main thread's CPU time "
        "(Chromium's performance metrics in thread ticks, around each entry): on a shared machine the wall "
        "time also holds the time other processes took the core.",
        END,
    ]
    return "\n".join(lines) + "\n"


def write(results: Path, section: str) -> None:
    """This script's section of the file replaced, or appended: bench.py writes the rest."""
    text = results.read_text("utf-8") if results.is_file() else ""
    found = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)
    if found.search(text):
        text = found.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    results.write_text(text, "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="builds of each project, interleaved (default 9)")
    parser.add_argument(
        "--entries", type=int, default=MAX_ENTRIES, help=f"cards entered in Chromium (at most {MAX_ENTRIES})"
    )
    parser.add_argument("--results", default=REPO / "bench" / "RESULTS.md", type=Path, help="'-' for none")
    parser.add_argument("--skip", choices=("build", "entry", "count"), action="append", default=[],
                        help="count: no build under Cachegrind (it takes minutes)")  # fmt: skip
    args = parser.parse_args()
    if not 1 <= args.entries <= MAX_ENTRIES:
        parser.error(f"--entries: 1 to {MAX_ENTRIES} (two decks' cards, less the warm-up)")
    with tempfile.TemporaryDirectory(prefix="rulesdoc-bench-calculator-") as tmp:
        counted = "count" not in args.skip
        build = None if "build" in args.skip else measure_build(Path(tmp), args.runs, counted)
        if "entry" in args.skip:
            entry = None
        else:
            site = build["site"] if build else Path(tmp) / "site"
            if build is None:
                run(build_cmd(site), env=child_env(SOURCE_DATE_EPOCH=EPOCH))
            entry = measure_entry(site, args.entries)
    section = report(build, entry, args.runs)
    print(section)
    if str(args.results) != "-":
        write(args.results, section)


if __name__ == "__main__":
    main()
