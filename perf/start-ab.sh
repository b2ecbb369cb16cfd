#!/usr/bin/env bash
# Time to a healthy /v1/agent/health for two launchers, alternated, each on a new data dir (docs/benchmarks/startup.md).
# Health is polled every 10 ms from one process; CPU seconds and RSS at that moment and the 1-minute load average are printed beside each start.
#
# Usage: perf/start-ab.sh LAUNCHER_A LAUNCHER_B [PAIRS]     e.g. perf/start-ab.sh /tmp/base/bin/berth bin/berth 5
set -euo pipefail
source "$(dirname "$0")/agent-lib.sh"
A=$1 B=$2 PAIRS=${3:-5}
one() { # $1 = tag, $2 = launcher
  local work port pid t0 t1
  work=$(mktemp -d /tmp/berth-start-ab.XXXXXX)
  port=$(free_port)
  t0=$(date +%s%N)
  "$2" --server.address=127.0.0.1 --server.port="$port" --berth.data-dir="$work/data" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN >"$work/log" 2>&1 &
  pid=$!
  wait_healthy "$port" "$pid"
  t1=$(date +%s%N)
  printf '%s healthy %.2f s (%.2f s CPU) RSS %d MB load %s\n' "$1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print (b - a) / 1e9}')" \
    "$(awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$pid/stat")" \
    "$(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$pid/status")" "$(cut -d' ' -f1 /proc/loadavg)"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
for i in $(seq 1 "$PAIRS"); do one "A#$i" "$A"; one "B#$i" "$B"; done
