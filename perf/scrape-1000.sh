#!/usr/bin/env bash
# /actuator/prometheus scrape cost with 1,000 running allocations, side by side with Debian's prometheus-node-exporter
# scraped in the same run, plus GET /v1/client/allocation/{id}/stats under wrk with those allocations present.
#
#   perf/scrape-1000.sh [ALLOCS=1000] [N=100] [NAMINGS="prometheus nomad"]
#
# For each naming mode in NAMINGS: starts its own agent (fat jar, raw_exec on, throw-away data dir) on a free loopback
# port, submits ALLOCS raw_exec `sleep 3600` allocations (CPU 1, MemoryMB 10) with PAR parallel PUTs, waits until all
# are running, then takes N measured scrapes (after 20 warm-up scrapes) of the agent and of node_exporter, reports
# p50/p90/p99/max and the body size, runs wrk on one allocation's /stats (10 s warm-up, then WRK_SECS measured; first
# saturating with WRK_CONNS connections, then paced with WRK_PACED_CONNS connections at about 15k req/s), and finally
# destroys every allocation and stops the agent. node_exporter runs on 127.0.0.1:9100 for the whole script and
# is stopped at the end. Only loopback traffic.
set -euo pipefail
cd "$(dirname "$0")/.."
ALLOCS=${1:-1000}
N=${2:-100}
NAMINGS=${3:-prometheus nomad}
PAR=${PAR:-8}
WARMUP=20
WRK_SECS=${WRK_SECS:-20}
SCRAPES=${SCRAPES:-1}        # 0: skip the /actuator/prometheus and node_exporter scrapes, run only wrk on /stats
WRK_CONNS=${WRK_CONNS-16}   # "" for none; one or more connection counts, e.g. "16 4"
WRK_PACED_CONNS=${WRK_PACED_CONNS-32}   # paced runs (perf/wrk-paced.lua), about 15k req/s offered on a quiet machine; "" for none
JAVA_OPTS=${JAVA_OPTS:-}     # extra JVM options, e.g. a JFR recording
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
NODE_EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
JAR=$(ls target/berth-*.jar | grep -v original | head -1)
NE_URL=http://127.0.0.1:9100/metrics

AGENT= NE= DATA= BASE=
destroy_all() {
  [ -n "$BASE" ] || return 0
  curl -s "$BASE/v1/client/allocations" | grep -o '"ID":"bench-[^"]*"' | cut -d'"' -f4 \
    | xargs -r -P "$PAR" -I{} curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/{}" || true
  # wait (bounded) until the agent has no live sleep processes left under this data dir
  for _ in $(seq 1 120); do [ "$(pgrep -fc "$DATA" || true)" -le 1 ] && break; sleep 1; done
}
stop_agent() {
  [ -n "$AGENT" ] || return 0
  destroy_all
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  AGENT=
  [ -z "$DATA" ] || { pkill_left=$(pgrep -f "$DATA" || true); [ -z "$pkill_left" ] || kill $pkill_left 2>/dev/null || true; }
  [ -z "$DATA" ] || rm -rf "$DATA"
  DATA= BASE=
}
cleanup() {
  stop_agent
  [ -z "$NE" ] || { kill "$NE" 2>/dev/null || true; wait "$NE" 2>/dev/null || true; }
}
trap cleanup EXIT

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }

# N scrapes of $1 after warm-up; prints p50/p90/p99/max, body bytes and series count under label $2
scrape() {
  local url=$1 label=$2 times
  times=$(mktemp)
  for _ in $(seq "$WARMUP"); do curl -sf -o /dev/null "$url"; done
  for _ in $(seq "$N"); do curl -sf -o /dev/null -w '%{time_total}\n' "$url" >>"$times"; done
  local body series
  body=$(curl -sf "$url" | wc -c)
  series=$(curl -sf "$url" | grep -vc '^#')
  sort -n "$times" | awk -v n="$N" -v body="$body" -v series="$series" -v label="$label" '
    { t[NR] = $1 * 1000 }
    function pct(p,   i) { i = int(p * n + 0.999999); if (i < 1) i = 1; if (i > n) i = n; return t[i] }
    END { printf "%-28s scrapes=%d p50=%.2f ms p90=%.2f ms p99=%.2f ms max=%.2f ms body=%d bytes series=%d\n",
          label, n, pct(0.50), pct(0.90), pct(0.99), t[n], body, series }'
  rm -f "$times"
}

put() { # $1 = alloc id
  curl -sf -o /dev/null -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$1\",\"Name\":\"bench.g[0]\",\"JobID\":\"bench\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"bench\",\"Name\":\"bench\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}" || echo "PUT $1 failed" >&2
}
export -f put
# running allocations, counted from the allocation list (independent of the metric naming mode)
running() { curl -s "$BASE/v1/client/allocations" | grep -o '"ClientStatus":"running"' | wc -l; }

# node_exporter first, so both targets are scraped under the same conditions
if curl -s -o /dev/null "$NE_URL"; then echo "something already listens on 127.0.0.1:9100" >&2; exit 1; fi
"$NODE_EXPORTER" --web.listen-address=127.0.0.1:9100 >/tmp/bench-node-exporter.log 2>&1 &
NE=$!
for _ in $(seq 1 50); do curl -sf -o /dev/null "$NE_URL" && break; sleep 0.2; done
echo "node_exporter pid $NE: $("$NODE_EXPORTER" --version 2>&1 | head -1)"

for naming in $NAMINGS; do
  PORT=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
  DATA=$(mktemp -d /tmp/berth-bench-scrape.XXXXXX)
  BASE="http://127.0.0.1:$PORT"
  export BASE
  # shellcheck disable=SC2086 # JAVA_OPTS is a word list
  "$JAVA" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
    --berth.drivers.raw-exec.enabled=true --berth.metrics.naming="$naming" --logging.level.root=WARN \
    >"$DATA/agent.log" 2>&1 &
  AGENT=$!
  for _ in $(seq 1 120); do
    kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
    curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1
  done
  curl -sf "$BASE/v1/client/allocations" >/dev/null || { echo "no allocation API on $BASE"; exit 1; }
  echo "=== naming=$naming: agent pid $AGENT on $BASE"

  start=$(date +%s.%N)
  seq 1 "$ALLOCS" | xargs -P "$PAR" -I{} bash -c 'put bench-{}'
  for _ in $(seq 1 600); do [ "$(running)" -ge "$ALLOCS" ] && break; sleep 1; done
  echo "running allocs: $(running) (submitted in $(echo "$(date +%s.%N) - $start" | bc) s)"
  # let the collectors publish a full round with every task before measuring
  sleep 5

  if [ "$SCRAPES" = 1 ]; then
    load
    scrape "$BASE/actuator/prometheus" "berth ($naming)"
    scrape "$NE_URL" "node_exporter"
    load
    scrape "$BASE/actuator/prometheus" "berth ($naming), 2nd"
  fi

  load
  url="$BASE/v1/client/allocation/bench-1/stats"
  echo "stats body: $(curl -sf "$url" | wc -c) bytes"
  for c in $WRK_CONNS; do
    wrk -t2 -c"$c" -d10s "$url" >/dev/null   # JIT warm-up
    wrk -t2 -c"$c" -d"${WRK_SECS}s" --latency "$url"
    load
  done
  # paced: each connection waits 1 ms after every response, so the machine is not saturated (latency at a set rate)
  for c in $WRK_PACED_CONNS; do
    echo "paced: $c connections, 1 ms between a response and the next request"
    wrk -t2 -c"$c" -d"${WRK_SECS}s" --latency -s perf/wrk-paced.lua "$url"
    load
  done
  echo "agent RSS: $(($(ps -o rss= -p "$AGENT") / 1024)) MB"

  stop_agent
  echo "stopped; sleep processes left from this run: $(pgrep -fc berth-bench-scrape || true)"
done
