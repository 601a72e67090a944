#!/usr/bin/env bash
# What the tests need from the system and npm cannot install: Debian's Chromium for the browser
# journeys (Playwright cannot download browsers here), poppler's pdftoppm (PDF pages to PNG), and
# two local services: Redis on 127.0.0.1:6379 (instances sharing rate limits) and PostgreSQL on
# 127.0.0.1:5432 (the scale-out test: two servers and a worker on one database). Installed with
# apt and started when missing; nothing happens when all are there. Run by `npm test` (pretest).
set -euo pipefail
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
missing=""
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing="chromium"
command -v pdftoppm >/dev/null || missing="$missing poppler-utils"
if [ -z "${TEST_REDIS_URL:-}" ]; then command -v redis-server >/dev/null || missing="$missing redis-server"; fi
if [ -z "${TEST_POSTGRES_ADMIN_URL:-}" ]; then command -v pg_ctlcluster >/dev/null || missing="$missing postgresql"; fi
if [ -n "$missing" ]; then
  echo "Installing with apt: $missing" >&2
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
if [ -z "${TEST_REDIS_URL:-}" ] && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Starting Redis on 127.0.0.1:6379 (nothing kept on disk)" >&2
  $SUDO mkdir -p /var/lib/redis /var/log/redis
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
if [ -z "${TEST_POSTGRES_ADMIN_URL:-}" ] && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "Starting PostgreSQL on 127.0.0.1:5432" >&2
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
