#!/usr/bin/env bash
# Installs the system libraries poddoc builds against, and the programs its tests run with
# (git, GNU time, groff for the man page's check, Syncthing), when they are missing.
# Safe to run again: it only calls apt-get for packages that are not installed yet.
set -euo pipefail

packages=(libsqlite3-dev libarchive-dev libedit-dev zstd pkg-config time git groff-base)
# Wanted by one test each, which says it is skipped when its program could not be installed.
optional=(syncthing)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
missing_optional=()
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done
if [ ${#missing[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]} ${missing_optional[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install ${missing[*]} ${missing_optional[*]}" >&2; exit 1; }
  sudo="sudo"
fi
# Without network only the optional programs may go without.
$sudo apt-get update -qq || [ ${#missing[@]} -eq 0 ]
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for p in "${missing_optional[@]}"; do
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$p" >/dev/null \
    || echo "bootstrap: could not install $p; the test that runs it will say it is skipped" >&2
done
