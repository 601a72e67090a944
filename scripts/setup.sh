#!/usr/bin/env bash
# Everything `npm install` cannot do: Debian's Chromium for the browser tests (browsers cannot be
# downloaded by Playwright here), then a production build.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi
NEXT_TELEMETRY_DISABLED=1 npx next build
