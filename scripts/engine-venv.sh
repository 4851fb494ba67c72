#!/bin/sh
# scripts/engine-venv.sh ENGINE VENV: a virtualenv that builds the site with ENGINE instead of MkDocs.
#   properdocs: ProperDocs 1.6 (the maintained continuation of MkDocs 1.x) with Material and rulesdoc,
#               and NO `mkdocs` package: what a user who left MkDocs has (checked at the end).
#   zensical:   Zensical 0.0.73 (the release the package index here serves: 0.0.74+ and 0.1.x pin a
#               zensical-ui release it lacks), Material's files (we read its partials for the theme
#               strings, identical across engines) and rulesdoc, no `mkdocs` either.
# Material and rulesdoc are installed --no-deps, since both declare `mkdocs`; their other runtime
# dependencies are read from their metadata and installed by name, so nothing pulls MkDocs back in.
# Idempotent: a stamp file, rewritten when pyproject.toml, constraints.txt or this script change.
# Quiet; the interpreter's pip installs into the venv (--python), as the Makefile does.
set -eu

ENGINE=${1:?usage: scripts/engine-venv.sh properdocs|zensical VENV}
VENV=${2:?usage: scripts/engine-venv.sh properdocs|zensical VENV}
PYTHON=${PYTHON:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

case "$ENGINE" in
properdocs) ENGINE_REQ="properdocs==1.6.*" ;;
zensical) ENGINE_REQ="zensical==0.0.73" ;;
*)
    echo "engine-venv.sh: unknown engine '$ENGINE' (properdocs or zensical)" >&2
    exit 2
    ;;
esac

STAMP="$VENV/.installed-$ENGINE"
if [ -f "$STAMP" ] && [ "$STAMP" -nt "$ROOT/pyproject.toml" ] && [ "$STAMP" -nt "$ROOT/constraints.txt" ] \
    && [ "$STAMP" -nt "$0" ]; then
    exit 0
fi

"$PYTHON" -m venv --without-pip "$VENV"
PY="$VENV/bin/python"
if "$PYTHON" -m pip --version >/dev/null 2>&1; then
    PIP="$PYTHON -m pip --python $PY"
else
    "$PY" -m ensurepip --default-pip >/dev/null
    PIP="$PY -m pip"
fi
# pip's output is shown only when it fails: its resolver always complains here that Material and
# rulesdoc require mkdocs, which is the point of this venv.
LOG="$VENV/.pip-log"
pip_install() {
    # shellcheck disable=SC2086 # PIP is a command and its arguments
    if ! $PIP install --quiet --disable-pip-version-check --no-compile "$@" >"$LOG" 2>&1; then
        grep -v "is ignored: it is neither a file nor a directory" "$LOG" >&2
        echo "engine-venv.sh: pip install $* failed (above)" >&2
        exit 1
    fi
}

# constraints.txt pins mkdocs too; a constraint installs nothing by itself, so it is harmless here.
pip_install -c "$ROOT/constraints.txt" "$ENGINE_REQ"
pip_install -c "$ROOT/constraints.txt" --no-deps mkdocs-material
pip_install --no-deps -e "$ROOT"

# The runtime requirements of Material and of rulesdoc, but mkdocs (and extras, markers not met).
DEPS=$("$PY" - "$ROOT/pyproject.toml" <<'EOF'
import re
import sys
import tomllib
from importlib.metadata import requires

wanted = []
with open(sys.argv[1], "rb") as f:
    wanted += tomllib.load(f)["project"]["dependencies"]
wanted += requires("mkdocs-material") or []
seen = set()
for req in wanted:
    if ";" in req and "extra" in req.split(";", 1)[1]:
        continue  # an optional extra of Material (imaging, recommended, git)
    req = req.split(";", 1)[0].strip()
    name = re.split(r"[\s<>=!~\[(]", req, maxsplit=1)[0].lower().replace("_", "-")
    if name in ("mkdocs", "mkdocs-material") or name in seen:
        continue
    seen.add(name)
    print(req.replace(" ", ""))
EOF
)
# shellcheck disable=SC2086 # one requirement a word, none with spaces
pip_install -c "$ROOT/constraints.txt" $DEPS

if "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('mkdocs') is None)"; then
    echo "engine-venv.sh: the $ENGINE venv $VENV can import mkdocs; it must not" >&2
    exit 1
fi
"$PY" -c "import $ENGINE" || {
    echo "engine-venv.sh: $ENGINE does not import in $VENV" >&2
    exit 1
}
touch "$STAMP"
