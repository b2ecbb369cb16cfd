#!/usr/bin/env bash
# Throughput and latency of GET /v1/client/allocation/{id}/stats on loopback with wrk, against a freshly started agent
# running one allocation of two raw_exec tasks (an idle one and a busy loop). Usage: perf/stats-wrk.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}; conns=${2:-16}
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
data=$(mktemp -d /tmp/berth-bench-XXXXXX)
jar=$(ls target/berth-*.jar | head -1)
# a random free port (other agents may be running on this host): read back from the log
"$java" --enable-native-access=ALL-UNNAMED -jar "$jar" --server.port=0 --berth.data-dir="$data" \
  --berth.drivers.raw-exec.enabled=true > "$data/agent.log" 2>&1 &
agent=$!
port=
trap '[ -z "$port" ] || curl -s -X DELETE "http://127.0.0.1:$port/v1/client/allocation/bench-alloc" >/dev/null || true; kill $agent; wait $agent || true; rm -rf "$data"' EXIT
for _ in $(seq 1 240); do
  port=$(grep -o 'Tomcat started on port [0-9]*' "$data/agent.log" | grep -o '[0-9]*$' || true)
  [ -n "$port" ] && break; sleep 0.5
done
[ -n "$port" ] || { echo "agent did not start" >&2; tail -20 "$data/agent.log" >&2; exit 1; }
task() { printf '{"Name":"%s","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","%s"]},"KillTimeout":1000000000,"Resources":{"CPU":100,"MemoryMB":32}}' "$1" "$2"; }
curl -sf -X PUT "http://127.0.0.1:$port/v1/client/allocation/bench-alloc" -H 'Content-Type: application/json' -d "{\"ID\":\"bench-alloc\",\"Name\":\"b.app[0]\",\"JobID\":\"b\",\"AllocModifyIndex\":1,\"DesiredStatus\":\"run\",\"TaskGroup\":\"app\",\"Job\":{\"ID\":\"b\",\"Name\":\"b\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"app\",\"Count\":1,\"Tasks\":[$(task idle 'sleep 3600'),$(task busy 'while :; do :; done')]}]}}" >/dev/null
for _ in $(seq 1 60); do curl -s "http://127.0.0.1:$port/v1/client/allocation/bench-alloc/stats" | grep -q '"busy"' && break; sleep 0.5; done
curl -s "http://127.0.0.1:$port/v1/client/allocation/bench-alloc/stats"; echo
wrk -t2 -c"$conns" -d10s "http://127.0.0.1:$port/v1/client/allocation/bench-alloc/stats" >/dev/null   # JIT warm-up
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$port/v1/client/allocation/bench-alloc/stats"
