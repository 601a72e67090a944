#!/usr/bin/env bash
# Everything `npm install` cannot do: Debian's Chromium for the browser tests (browsers cannot be
# downloaded by Playwright here) and poppler's pdftoppm (the tests render PDFs to PNG), then a
# production build.
set -euo pipefail
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
command -v pdftoppm >/dev/null || missing="$missing poppler-utils"
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
NEXT_TELEMETRY_DISABLED=1 npx next build
