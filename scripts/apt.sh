# shellcheck shell=bash
# Sourced by what installs Debian packages (scripts/browser-deps.sh, `make bench`): apt run as
# root, or through sudo, asking nothing. A fresh machine or container has no package lists:
# apt_update before the first install, or before apt-cache reads them.
APT_SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
apt_update() {
	$APT_SUDO apt-get update -qq
}
apt_install() {
	$APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}
