#!/usr/bin/env bash
# What the agent loads and costs before the first request for the OpenAPI document, and what that request costs.
#   perf/first-use.sh classes HOME...      per agent home (a directory with bin/ and target/berth/, built by
#                                           `./mvnw -Paot package`): classes loaded 3 s after healthy without the AOT
#                                           cache, by prefix, then after the first /v3/api-docs
#   perf/first-use.sh starts ROUNDS HOME... alternated restarts (one data dir per home, as shipped, AOT cache on):
#                                           time and CPU to healthy, RSS 20 s after healthy, first and second
#                                           /v3/api-docs latency, RSS after; the load average on each line
# Compare two builds: copy each build's bin/ and target/berth/ to its own HOME and run `bin/berth train` there (the
# AOT cache records the jar's path).
set -u
. "$(dirname "$0")/agent-lib.sh"
PREFIXES="org.springdoc io.swagger com.fasterxml.jackson.annotation com.fasterxml.jackson.core com.fasterxml.jackson.databind com.fasterxml.jackson.dataformat com.fasterxml.jackson.datatype"

count() { printf "total %d" "$(wc -l < "$1")"; for p in $PREFIXES; do printf " %s=%d" "${p#com.fasterxml.}" "$(grep -c "] $p" "$1")"; done; echo; }

start() { # HOME DATA [JAVA_OPTS]: starts the agent, sets PORT and PID
  PORT=$(free_port)
  (cd "$1" && JAVA_OPTS="${3:-}" exec bin/berth --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$2" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN > "$2.log" 2>&1) &
  PID=$!
}

classes() {
  for home in "$@"; do
    work=$(mktemp -d /tmp/first-use.XXXXXX)
    BERTH_AOT=/nonexistent start "$home" "$work/data" "-Xlog:class+load=info:file=$work/cl.txt"
    wait_healthy "$PORT" "$PID" || { tail "$work/data.log"; exit 1; }
    sleep 3
    for u in /v1/agent/health /actuator/health /actuator/prometheus /v1/client/allocations; do
      curl -s -o /dev/null "http://127.0.0.1:$PORT$u"
    done
    echo "$home healthy: $(count "$work/cl.txt")"
    curl -s -o /dev/null "http://127.0.0.1:$PORT/v3/api-docs"; sleep 1
    echo "$home after /v3/api-docs: $(count "$work/cl.txt")"
    kill "$PID"; wait "$PID" 2>/dev/null; rm -rf "$work"
  done
}

one() { # HOME DATA
  t0=$(date +%s%N); start "$1" "$2"
  wait_healthy "$PORT" "$PID" || { tail "$2.log"; exit 1; }
  t1=$(date +%s%N); cpu=$(awk '{print $14+$15}' "/proc/$PID/stat")
  sleep 20; rss=$(awk '/VmRSS/{print int($2/1024)}' "/proc/$PID/status")
  d1=$(curl -s -o /dev/null -w "%{time_total}" "http://127.0.0.1:$PORT/v3/api-docs")
  d2=$(curl -s -o /dev/null -w "%{time_total}" "http://127.0.0.1:$PORT/v3/api-docs")
  after=$(awk '/VmRSS/{print int($2/1024)}' "/proc/$PID/status")
  printf "%s healthy %.2fs cpu %.2fs rss20 %d MB | api-docs first %.3fs second %.3fs rss %d MB | load %s\n" "$1" \
    "$(awk "BEGIN{print ($t1-$t0)/1e9}")" "$(awk "BEGIN{print $cpu/100}")" "$rss" "$d1" "$d2" "$after" \
    "$(cut -d' ' -f1 /proc/loadavg)"
  kill "$PID"; wait "$PID" 2>/dev/null
}

starts() {
  rounds=$1; shift
  work=$(mktemp -d /tmp/first-use.XXXXXX)
  i=0; for home in "$@"; do mkdir -p "$work/$i"; one "$home" "$work/$i/data" > /dev/null; i=$((i+1)); done
  for _ in $(seq 1 "$rounds"); do
    i=0; for home in "$@"; do one "$home" "$work/$i/data"; i=$((i+1)); done
  done
  rm -rf "$work"
}

case "${1:-}" in
  classes) shift; classes "$@" ;;
  starts) shift; starts "$@" ;;
  *) sed -n 2,12p "$0"; exit 2 ;;
esac
