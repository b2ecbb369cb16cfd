#!/usr/bin/env bash
# Allocation benchmarks against a real agent (raw_exec `sleep` tasks):
#   1. PUT→Started latency (p50/p99 from the agent's berth_client_alloc_start_latency timer, plus client-side PUT time)
#   2. how many concurrent running allocs one agent holds (target 2,000), with agent heap, RSS and thread counts.
# Usage: perf/allocs-bench.sh [TOTAL=2000] [LATENCY_N=200]
# Starts its own agent on 127.0.0.1:$PORT with a throw-away data dir, destroys every alloc at the end, stops it and
# removes the data dir (KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
TOTAL=${1:-2000}
LATENCY_N=${2:-200}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
PAR=${PAR:-8}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-bench-allocs.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar | grep -v original | head -1)

"$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN >"$DATA/agent.log" 2>&1 &
AGENT=$!
cleanup() {
  curl -s "$BASE/v1/client/allocations" | grep -o '"ID":"bench-[^"]*"' | cut -d'"' -f4 \
    | xargs -r -P "$PAR" -I{} curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/{}" || true
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"   # KEEP=1 keeps the data dir (agent log, threads.json)
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
  curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1
done
# make sure it is our agent answering (and not another one on the same port)
curl -sf "$BASE/v1/client/allocations" >/dev/null || { echo "no allocation API on $BASE"; exit 1; }
echo "agent pid $AGENT on $BASE, data $DATA"

put() { # $1 = alloc id
  curl -s -o /dev/null -w '%{time_total}\n' -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$1\",\"Name\":\"bench.g[0]\",\"JobID\":\"bench\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"bench\",\"Name\":\"bench\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}"
}
export -f put; export BASE
metric() { curl -s "$BASE/actuator/prometheus" | grep -E "^$1" || true; }
running() { metric 'berth_client_allocations\{status="running"' | awk '{print $2}' | cut -d. -f1; }

echo "== latency: $LATENCY_N sequential PUTs"
for i in $(seq 1 "$LATENCY_N"); do put "bench-$i"; done | sort -n | awk '{a[NR]=$1} END {printf "client PUT time: p50=%.1fms p99=%.1fms\n", a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000}'
for _ in $(seq 1 60); do [ "$(running)" -ge "$LATENCY_N" ] 2>/dev/null && break; sleep 1; done
metric 'berth_client_alloc_start_latency_seconds\{quantile'
metric 'berth_client_alloc_start_latency_seconds_(count|max)'

echo "== capacity: $TOTAL concurrent allocs ($PAR parallel PUTs)"
START=$(date +%s.%N)
seq $((LATENCY_N + 1)) "$TOTAL" | xargs -P "$PAR" -I{} bash -c 'put bench-{} >/dev/null'
for _ in $(seq 1 600); do [ "$(running)" -ge "$TOTAL" ] 2>/dev/null && break; sleep 1; done
END=$(date +%s.%N)
echo "running allocs: $(running) (submitted in $(echo "$END - $START" | bc) s)"
echo "sleep processes of this agent: $(pgrep -f "$DATA" -c || true)"
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd "$AGENT" GC.run >/dev/null 2>&1 || true; sleep 2
metric 'jvm_memory_used_bytes\{area="heap"' | awk '{s+=$NF} END {printf "heap used: %.0f MB\n", s/1048576}'
metric 'jvm_gc_live_data_size_bytes' | awk '{printf "live data after last GC: %.0f MB\n", $NF/1048576}'
metric 'jvm_threads_live_threads'
metric 'jvm_threads_daemon_threads'
echo "agent RSS: $(($(ps -o rss= -p "$AGENT") / 1024)) MB"
"$JAVA" -version 2>&1 | head -1
jcmd_threads=$(/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd "$AGENT" Thread.dump_to_file -format=json "$DATA/threads.json" >/dev/null 2>&1 && grep -c '"tid"' "$DATA/threads.json" || echo n/a)
echo "threads in a JSON thread dump (virtual included): $jcmd_threads"
metric 'berth_client_alloc_start_latency_seconds\{quantile'
