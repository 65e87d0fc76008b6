#!/bin/sh
# Installs the offline speech recogniser that kmem uses for audio and video when Amazon Transcribe is
# not configured: CMU PocketSphinx and its US English model, from Debian (pocketsphinx, pocketsphinx-en-us).
# Idempotent: does nothing when they are installed. Runs apt-get only as root; otherwise says what to run.
# Exits 0 unless --strict is given and the recogniser could not be installed.
set -eu

PACKAGES="pocketsphinx pocketsphinx-en-us"
MODEL=/usr/share/pocketsphinx/model/en-us/en-us.lm.bin
STRICT=0
[ "${1:-}" = "--strict" ] && STRICT=1

installed() {
  command -v pocketsphinx_continuous >/dev/null 2>&1 && [ -f "$MODEL" ]
}

give_up() {
  echo "[kmem] $1" >&2
  echo "[kmem] audio and video will fail to extract until it is installed (or Amazon Transcribe is configured)" >&2
  exit "$STRICT"
}

if installed; then
  echo "[kmem] offline speech recognition is installed (pocketsphinx)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  give_up "no apt-get here: install CMU PocketSphinx 0.8 and its en-us model with your package manager"
fi
if [ "$(id -u)" -ne 0 ]; then
  give_up "offline speech recognition is not installed; as root run: apt-get install -y --no-install-recommends $PACKAGES"
fi

export DEBIAN_FRONTEND=noninteractive
echo "[kmem] installing offline speech recognition: $PACKAGES"
# shellcheck disable=SC2086 # the package list is meant to split
if ! apt-get install -y --no-install-recommends $PACKAGES >/dev/null; then
  # the package lists may be missing or stale on a fresh machine
  apt-get update >/dev/null && apt-get install -y --no-install-recommends $PACKAGES >/dev/null || true
fi
installed || give_up "installing $PACKAGES failed"
echo "[kmem] offline speech recognition is installed (pocketsphinx)"
