"""The same content built by each engine (issue 28, goal 5): MkDocs 1.6 (this venv), ProperDocs 1.6
and Zensical 0.0.73 (their venvs without mkdocs, scripts/engine-venv.sh), at 6, 20 and 48
languages, each build followed by `rulesdoc check --site`. Best of N fresh processes, CPU of the
process tree (wait4) and wall time, as bench.py measures; ratios to the MkDocs build.

    .venv/bin/python bench/engines.py [--runs N] [--results bench/ENGINES.md] [--sizes 6 20 48]
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import EPOCH, REPO, SITE_SIZES, Projects, Timing, best  # noqa: E402

ENGINES = ("mkdocs", "properdocs", "zensical")


def engine_python(engine: str) -> Path:
    if engine == "mkdocs":
        return Path(sys.executable)
    venv = REPO / f".venv-{engine}"
    subprocess.run(["sh", str(REPO / "scripts" / "engine-venv.sh"), engine, str(venv)], check=True)
    return venv / "bin" / "python"


def build_cmd(python: Path, engine: str) -> list[str]:
    """What `make site ENGINE=...` runs: the engine's build, then check --site."""
    return [str(python), "-m", "rulesdoc", "build", "--engine", engine]


def measure(runs: int, sizes: tuple[int, ...]) -> list[tuple[int, dict[str, Timing]]]:
    pythons = {engine: engine_python(engine) for engine in ENGINES}
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulesdoc-engines-") as tmp:
        projects = Projects(Path(tmp))
        for count in sizes:
            print(f"    engines: {count} languages", file=sys.stderr, flush=True)
            project = projects.languages(count)
            timings = {}
            for engine, python in pythons.items():
                shutil.rmtree(project / "site", ignore_errors=True)
                timings[engine] = best(runs, build_cmd(python, engine), project, SOURCE_DATE_EPOCH=EPOCH)
            rows.append((count, timings))
    return rows


def table(rows: list[tuple[int, dict[str, Timing]]]) -> str:
    lines = [
        "| Languages | " + " | ".join(ENGINES) + " | properdocs / mkdocs | zensical / mkdocs |",
        "|---|" + "---|" * (len(ENGINES) + 2),
    ]
    for count, t in rows:
        base = t["mkdocs"].cpu
        cells = [str(t[engine]) for engine in ENGINES]
        ratios = [f"{t[engine].cpu / base:.2f}x" for engine in ("properdocs", "zensical")]
        lines.append(f"| {count} | " + " | ".join(cells + ratios) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SITE_SIZES))
    parser.add_argument("--results", default=str(REPO / "bench" / "ENGINES.md"), help="'-' for none")
    args = parser.parse_args()
    rows = measure(args.runs, tuple(args.sizes))
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = (
        f"## Engines\n\n`bench/engines.py` (best of {args.runs}) on {when}: CPU of the process tree of "
        "`rulesdoc build --engine E` (the engine's build and `check --site`), wall time in brackets.\n\n"
        + table(rows)
    )
    print(text)
    if args.results != "-":
        Path(args.results).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
