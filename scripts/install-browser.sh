#!/bin/sh
# Installs Debian's chromium, the real browser the console's end-to-end tests drive with playwright-core
# (no browser download exists here). Idempotent; runs apt-get only as root, otherwise says what to run.
# Exits 0 unless --strict is given and chromium could not be installed.
set -eu

PACKAGES="chromium"
BROWSER=/usr/bin/chromium
STRICT=0
[ "${1:-}" = "--strict" ] && STRICT=1

give_up() {
  echo "[kmem] $1" >&2
  echo "[kmem] the console's browser tests fail until it is installed" >&2
  exit "$STRICT"
}

if [ -x "$BROWSER" ]; then
  echo "[kmem] chromium is installed ($BROWSER)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  give_up "no apt-get here: install chromium with your package manager (or set KMEM_CHROMIUM to its path)"
fi
if [ "$(id -u)" -ne 0 ]; then
  give_up "chromium is not installed; as root run: apt-get install -y --no-install-recommends $PACKAGES"
fi

export DEBIAN_FRONTEND=noninteractive
echo "[kmem] installing $PACKAGES for the console's browser tests"
# shellcheck disable=SC2086 # the package list is meant to split
if ! apt-get install -y --no-install-recommends $PACKAGES >/dev/null; then
  # the package lists may be missing or stale on a fresh machine
  apt-get update >/dev/null && apt-get install -y --no-install-recommends $PACKAGES >/dev/null || true
fi
[ -x "$BROWSER" ] || give_up "installing $PACKAGES failed"
echo "[kmem] chromium is installed ($BROWSER)"
