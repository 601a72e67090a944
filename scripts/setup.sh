#!/usr/bin/env bash
# Optional: everything ahead of time (the system packages the tests need, then a production build).
# `npm start` builds on first run and `npm test` installs the system packages itself.
set -euo pipefail
bash "$(dirname "$0")/system-deps.sh"
NEXT_TELEMETRY_DISABLED=1 npx next build
