#!/usr/bin/env bash
# Installs and starts what Berth's test suite needs on a bare Debian 12 machine: promtool and the Prometheus server
# (Debian's `prometheus` package), headless Chromium + chromedriver (`chromium`, `chromium-driver`) and a Docker
# engine with the locally built test images (.ci/docker-setup.sh). Idempotent and quick once everything is there.
# The Maven build calls it before the tests (skip with -Dberth.prereqs.skip=true), so
# README's test command works on a fresh machine as written. Needs root for the installs; as another user it only
# reports what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
# the web UI's browser tests: Debian's Chromium and its chromedriver (no browser downloads)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-prereqs: missing ${missing[*]} and not root; install them or tests that need them will fail" >&2
  else
    echo "test-prereqs: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

if [ -x .ci/docker-setup.sh ]; then
  .ci/docker-setup.sh
fi
