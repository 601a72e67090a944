#!/usr/bin/env bash
# What the tests need from the system and npm cannot install: Debian's Chromium for the browser
# journeys (Playwright cannot download browsers here) and poppler's pdftoppm (PDF pages to PNG).
# Installed with apt when missing; nothing happens when both are there. Run by `npm test` (pretest).
set -euo pipefail
missing=""
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing="chromium"
command -v pdftoppm >/dev/null || missing="$missing poppler-utils"
[ -z "$missing" ] && exit 0
echo "Installing with apt: $missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
