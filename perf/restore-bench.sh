#!/usr/bin/env bash
# Restore benchmark (issue 7): N running raw_exec tasks, the agent is stopped (SIGKILL by default, MODE=term for SIGTERM)
# and started again on the same data dir. Reports
#   - reconcile time and restore time (from the agent log: reconcile start -> last "restored allocation" line),
#   - start-to-ready of the restarted agent vs the first (empty) start,
#   - that every task process survived with the same pid,
#   - the per-task memory of the exit-status shim (RSS and PSS of the `sh` session leaders, from smaps_rollup).
# Usage: perf/restore-bench.sh [N=500]   (RESTART_OPTS="-XX:StartFlightRecording=filename=/tmp/r.jfr" profiles the restart)      (needs target/berth-*.jar: ./mvnw -q -o package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
MODE=${MODE:-kill}
PAR=${PAR:-8}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-bench-restore.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar | grep -v original | head -1)
AGENT=

start_agent() { # $1 = log file; sets AGENT and READY (seconds from launch to readiness)
  local t0; t0=$(date +%s.%N)
  "$JAVA" --enable-native-access=ALL-UNNAMED ${2:-} -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
    --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN --logging.level.dev.berth.alloc=INFO >"$1" 2>&1 &
  AGENT=$!
  for _ in $(seq 1 1200); do
    kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:" >&2; tail -20 "$1" >&2; exit 1; }
    curl -sf "$BASE/actuator/health/readiness" >/dev/null && break; sleep 0.1
  done
  READY=$(python3 -c "import time; print(round(time.time() - $t0, 2))")
  # CPU the agent JVM used up to readiness (utime+stime, clock ticks): independent of how busy the host is
  CPU=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14+$15)/hz}' "/proc/$AGENT/stat")
}
shims() { # "pid" of every live shim session leader of this data dir
  for d in /proc/[0-9]*; do
    { tr '\0' ' ' <"$d/cmdline"; } 2>/dev/null | grep -q "berth-task $DATA/drivers/raw_exec/" || continue
    p=${d#/proc/}; [ "$(awk '{print $5}' "$d/stat" 2>/dev/null)" = "$p" ] && echo "$p"
  done | sort -n
}
cleanup() {
  [ -n "$AGENT" ] && kill -9 "$AGENT" 2>/dev/null || true
  for p in $(shims); do kill -9 -- "-$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"
}
trap cleanup EXIT

start_agent "$DATA/agent-1.log"; first=$READY; cpu1=$CPU
echo "agent pid $AGENT on $BASE, data $DATA; first start to ready: ${first}s"
put() {
  curl -s -o /dev/null -w '%{http_code}\n' -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$1\",\"Name\":\"rb.g[0]\",\"JobID\":\"rb\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"rb\",\"Name\":\"rb\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":2,\"MemoryMB\":10}}]}]}}"
}
export -f put; export BASE
t0=$(date +%s)
seq -f "rb-%06g" 1 "$N" | xargs -P "$PAR" -I{} bash -c 'put {}' | sort | uniq -c
for _ in $(seq 1 600); do [ "$(shims | wc -l)" -ge "$N" ] && break; sleep 0.5; done
echo "$N allocs submitted and running in $(( $(date +%s) - t0 ))s"
before=$(shims)
echo "live shims: $(echo "$before" | wc -l)"
# per-task cost of the shim (sh session leader; the task itself is the `sleep` child)
echo "$before" | head -100 | while read -r p; do awk '/^Rss:/{r=$2} /^Pss:/{s=$2} END{print r, s}' "/proc/$p/smaps_rollup"; done \
  | awk '{r+=$1; s+=$2; n++} END{printf "shim memory over %d shims: avg RSS %.0f KiB, avg PSS %.0f KiB\n", n, r/n, s/n}'

if [ "$MODE" = term ]; then kill -TERM "$AGENT"; else kill -9 "$AGENT"; fi
wait "$AGENT" 2>/dev/null || true
start_agent "$DATA/agent-2.log" "${RESTART_OPTS:-}"; second=$READY; cpu2=$CPU
after=$(shims)
python3 - "$DATA/agent-2.log" "$N" <<'PY'
import re, sys
from datetime import datetime, timedelta
ts = lambda l: datetime.fromisoformat(l[:23])
rec, last = None, None
for l in open(sys.argv[1]):
    if 'reconciled task processes' in l:
        took = int(re.search(r'took=(\d+)ms', l).group(1))
        rec = (ts(l) - timedelta(milliseconds=took), took, l.strip()[100:])
    if 'restored allocation' in l:
        last = ts(l)
print("reconcile:", rec[2])
print("restore (reconcile start -> last alloc restored): %d ms for %s allocs" % ((last - rec[0]) / timedelta(milliseconds=1), sys.argv[2]))
PY
echo "restarted agent start to ready: ${second}s wall, ${cpu2}s CPU (first start, empty state: ${first}s wall, ${cpu1}s CPU)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
if [ -n "${RESTART_OPTS:-}" ] && [[ "$RESTART_OPTS" == *FlightRecording* ]]; then
  "$(dirname "$JAVA")/jcmd" "$AGENT" JFR.dump filename="${JFR_OUT:-/tmp/restore-restart.jfr}" >/dev/null && echo "JFR: ${JFR_OUT:-/tmp/restore-restart.jfr}"
fi
if [ "$before" = "$after" ]; then echo "all $(echo "$after" | wc -l) task processes survived with the same pids"; else
  echo "PID MISMATCH: before $(echo "$before" | wc -l) after $(echo "$after" | wc -l)"; fi
running=$(curl -s "$BASE/v1/client/allocations" | grep -o '"ClientStatus":"running"' | wc -l)
echo "allocs running after restore: $running / $N"
