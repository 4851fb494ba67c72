#!/usr/bin/env bash
# What the browser tests need: a Chromium and fonts for every script the site shows. The one place
# that decides which Chromium: `make browser-deps` runs this, and the workflow runs that target.
#
#   scripts/browser-deps.sh PYTHON     (PYTHON: the virtualenv's interpreter, with playwright)
#   scripts/browser-deps.sh --which    (prints the route apt's lists give, "apt" or "playwright";
#                                       installs nothing: tests/test_workflow.py)
#
# Debian has a real `chromium` deb: it is installed with the fonts and gettext (APT_PACKAGES, from
# the Makefile), and the tests use /usr/bin/chromium. Ubuntu (GitHub's runners) has no such deb,
# only a transitional package that installs the snap: there the fonts come from apt and the browser
# is Playwright's own build (`playwright install --with-deps chromium`), which the tests' conftest
# finds where Playwright keeps it. RULESDOC_CHROMIUM names any other Chromium for the tests.
set -euo pipefail

PYTHON=${1:?usage: $0 PYTHON|--which}

# A real deb: one apt has a candidate for, that is no transitional package pulling in the snap.
real_chromium_deb() {
	local show
	show=$(apt-cache show --no-all-versions chromium 2>/dev/null) || return 1
	[ -n "$show" ] || return 1
	! grep -qiE '^(pre-)?depends:.*\bsnapd\b|^description(-[a-z_]+)?:.*transitional' <<<"$show"
}

if [ "$PYTHON" = --which ]; then
	if real_chromium_deb; then echo apt; else echo playwright; fi
	exit 0
fi

read -r -a packages <<<"${APT_PACKAGES:?APT_PACKAGES: the apt packages, chromium among them}"
others=()  # every package but the browser
for p in "${packages[@]}"; do [ "$p" = chromium ] || others+=("$p"); done

# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"

# Everything already there: nothing to fetch (the usual case on a developer's machine).
if [ -x /usr/bin/chromium ] && dpkg -s "${others[@]}" >/dev/null 2>&1; then
	echo "browser-deps: Debian's Chromium (/usr/bin/chromium) and the fonts are installed"
	exit 0
fi

apt_update

if real_chromium_deb; then
	echo "browser-deps: Chromium from apt (${packages[*]})"
	apt_install "${packages[@]}"
else
	echo "browser-deps: apt has no real chromium deb: the fonts from apt, Playwright's own Chromium"
	apt_install "${others[@]}"
	"$PYTHON" -m playwright install --with-deps chromium
fi
