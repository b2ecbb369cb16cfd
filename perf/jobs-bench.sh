#!/usr/bin/env bash
# Job benchmarks against a real agent (raw_exec `sleep` tasks), issue 13:
#   1. registration → all allocations running for a COUNT-allocation job (PUT /v1/jobs to the last alloc running),
#      repeated RUNS times (register, wait, purge, wait for the allocations to be gone) → p50/p99 over the runs;
#   2. a job update that replaces every allocation (a task env change, update.max_parallel = COUNT): PUT to all new
#      allocations running and all old ones stopped.
# Usage: perf/jobs-bench.sh [COUNT=100] [RUNS=5]. Prints the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-100}
RUNS=${2:-5}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-bench-jobs.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar | grep -v original | head -1)

"$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN >"$DATA/agent.log" 2>&1 &
AGENT=$!
cleanup() {
  curl -s -o /dev/null -X DELETE "$BASE/v1/job/bench?purge=true" || true
  # the agent keeps its tasks running across its own restart: stop them before it goes, or they outlive the benchmark
  for _ in $(seq 1 240); do
    live=$(curl -s "$BASE/v1/client/allocations" | python3 -c "import json,sys; print(sum(1 for x in json.load(sys.stdin) if x['ClientStatus'] in ('running','pending')))" 2>/dev/null || echo 0)
    [ "$live" = 0 ] && break
    sleep 0.5
  done
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  # secrets/ and private/ are tmpfs mounts when the agent runs as root
  awk -v d="$DATA" '$2 ~ "^"d {print $2}' /proc/mounts | sort -r | while read -r m; do umount "$m" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"
}
trap cleanup EXIT
for _ in $(seq 1 180); do
  kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
  curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1
done
curl -sf "$BASE/v1/jobs" >/dev/null || { echo "no job API on $BASE"; exit 1; }
echo "agent pid $AGENT on $BASE; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

job() { # $1 = marker
  cat <<JSON
{"Job":{"ID":"bench","Type":"service","TaskGroups":[{"Name":"g","Count":$COUNT,"Update":{"MaxParallel":$COUNT},
 "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/sleep","args":["3600"]},
   "Env":{"MARKER":"$1"},"Resources":{"CPU":1,"MemoryMB":10}}]}]}}
JSON
}
now() { date +%s.%N; }
count() { # $1 = jq filter on allocations
  curl -s "$BASE/v1/job/bench/allocations" | python3 -c "import json,sys; a=json.load(sys.stdin); print(sum(1 for x in a if $1))"
}
wait_until() { # $1 = python condition on allocations, $2 = expected count
  until [ "$(count "$1")" -ge "$2" ]; do sleep 0.05; done
}
times=()
for r in $(seq 1 "$RUNS"); do
  t0=$(now)
  job "run$r" | curl -s -o /dev/null -X PUT "$BASE/v1/jobs" -d @-
  wait_until "x['ClientStatus']=='running' and x['DesiredStatus']=='run'" "$COUNT"
  t1=$(now)
  times+=("$(python3 -c "print($t1-$t0)")")
  if [ "$r" -lt "$RUNS" ]; then
    curl -s -o /dev/null -X DELETE "$BASE/v1/job/bench?purge=true"
    until [ "$(curl -s "$BASE/v1/client/allocations" | python3 -c "import json,sys; print(sum(1 for x in json.load(sys.stdin) if x['ClientStatus'] in ('running','pending')))")" -eq 0 ]; do sleep 0.2; done
  fi
done
python3 - "${times[@]}" <<'PY'
import sys
t = sorted(float(x) for x in sys.argv[1:])
p = lambda q: t[min(len(t) - 1, int(round(q * (len(t) - 1))))]
print(f"register -> all running ({len(t)} runs): p50 {p(0.5):.2f} s, p99 {p(0.99):.2f} s, all: {', '.join(f'{x:.2f}' for x in t)}")
PY
old=$(curl -s "$BASE/v1/job/bench/allocations" | python3 -c "import json,sys; print(' '.join(x['ID'] for x in json.load(sys.stdin) if x['DesiredStatus']=='run'))")
t0=$(now)
job "update" | curl -s -o /dev/null -X PUT "$BASE/v1/jobs" -d @-
wait_until "x['ClientStatus']=='running' and x['DesiredStatus']=='run' and x['ID'] not in '$old'.split()" "$COUNT"
t1=$(now)
until [ "$(count "x['ID'] in '$old'.split() and x['ClientStatus'] in ('running','pending')")" -eq 0 ]; do sleep 0.05; done
t2=$(now)
python3 -c "print(f'update replacing $COUNT allocs: all new running after {$t1-$t0:.2f} s, all old stopped after {$t2-$t0:.2f} s')"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
