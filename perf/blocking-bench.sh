#!/usr/bin/env bash
# 2,000 concurrent Nomad blocking queries against one agent: agent threads, RSS and heap before and while they wait,
# and how fast one change wakes them all. Starts its own agent on 127.0.0.1 with a throw-away data dir and one raw_exec
# allocation, runs perf/BlockingQueriesBench.java, then destroys the allocation and stops the agent.
# Usage: perf/blocking-bench.sh [N=2000]    (needs target/berth-*.jar: ./mvnw -q -DskipTests -Dberth.prereqs.skip=true package)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-bench-blocking.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar | grep -v original | head -1)
"$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN >"$DATA/agent.log" 2>&1 &
AGENT=$!
cleanup() {
  curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/bench-blocking" || true
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"
}
trap cleanup EXIT
for _ in $(seq 1 180); do
  kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
  curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1
done
curl -sf -X PUT "$BASE/v1/client/allocation/bench-blocking" -H 'Content-Type: application/json' -o /dev/null -d \
  '{"ID":"bench-blocking","Name":"bench.g[0]","JobID":"bench","AllocModifyIndex":1,"TaskGroup":"g",
    "Job":{"ID":"bench","Name":"bench","Type":"service","TaskGroups":[{"Name":"g",
    "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","trap : USR1; while :; do sleep 1; done"]},
    "Resources":{"CPU":1,"MemoryMB":10}}]}]}}'
for _ in $(seq 1 60); do curl -s "$BASE/v1/allocation/bench-blocking" | grep -q '"ClientStatus":"running"' && break; sleep 1; done
echo "agent pid $AGENT on $BASE; load: $(cat /proc/loadavg)"
"$JAVA" perf/BlockingQueriesBench.java "$BASE" "$AGENT" bench-blocking "$N"
