#!/usr/bin/env bash
# The user-mode share of the task-stats threads' CPU (the read threads and the tick), per build: perf/stats-tick.sh's
# real tick over N real cgroup v1 task directories at the agent's pace (1 s ticks), sampled by `perf record` at
# 9,999 Hz once the tick has run WARM ticks (a perf map names the JIT's code for `perf report`). The kernel part of a
# read is the same for every build, so the user/kernel ratio of those threads' samples is what a build's Java costs
# per unit of kernel work — steadier than CPU-time windows, which drift ±10 % on a shared VM from one 10 s window to
# the next.
#
# Usage: perf/stats-user-share.sh N BUILD_HOME...   (as perf/stats-tick.sh; env OUT (perf.data dir, default /tmp),
#        WARM (60 ticks), TICKS (30), ROUNDS (2); recording starts DELAY_MS (WARM s + 15 s) after each start)
# Needs: perf, and what perf/stats-tick.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."
N=$1; shift
OUT=${OUT:-/tmp}; WARM=${WARM:-60}; TICKS=${TICKS:-30}; ROUNDS=${ROUNDS:-2}
DELAY_MS=${DELAY_MS:-$(( (WARM + 15) * 1000 ))}
for home in "$@"; do
  data="$OUT/stats-user-share-$(echo "$home" | tr '/' '_').data"
  INTERVAL_MS=1000 WARM=$WARM TICKS=$TICKS ROUNDS=$ROUNDS PASSES=1 \
    JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
    WRAP="perf record -D $DELAY_MS -F 9999 -o $data --" perf/stats-tick.sh "$N" "$home" 2>&1 | grep -E '^#|round|C reader'
  perf script -i "$data" -F comm,ip 2>/dev/null | awk -v h="$home" '$1 == "berth-task-stat" {t++; if ($2 ~ /^ffff/) k++; else u++}
    END {printf "%s: task-stats samples %d, kernel %d, user %d, user/kernel %.3f (load %s)\n", h, t, k, u, u / k, "'"$(cut -d' ' -f1 /proc/loadavg)"'"}'
done
