#!/usr/bin/env bash
# What Flyway costs a start, for two launchers side by side (docs/benchmarks/footprint.md):
#   classes   classes loaded by healthy (+2 s) without the AOT cache (-Xlog:class+load), on a new data dir and on a
#             restart on it: all, org.flywaydb.*, org.springframework.boot.flyway.*; then the same restart with the
#             AOT cache as shipped (classes the JVM loaded from the cache)
#   aot       the AOT cache's size
#   starts    time to a healthy /v1/agent/health on a new data dir, then a restart on it; A and B alternated, PAIRS times
#   rss       idle RSS and threads 20 s after a healthy restart, A and B alternated, RSS_PAIRS times
# The 1-minute load average is printed beside every figure.
#
# Usage: perf/flyway-restart.sh LAUNCHER_A LAUNCHER_B [PAIRS] [RSS_PAIRS]
#        e.g. perf/flyway-restart.sh /tmp/base/bin/berth bin/berth 5 2
set -euo pipefail
source "$(dirname "$0")/agent-lib.sh"
A=$1 B=$2 PAIRS=${3:-5} RSS_PAIRS=${4:-2}
WORK=$(mktemp -d /tmp/berth-flyway-restart.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }

# start LAUNCHER DATA_DIR LOG [JAVA_OPTS]: starts an agent, waits until healthy; sets PID, PORT, T (seconds to healthy)
start() {
  local t0 t1
  PORT=$(free_port)
  t0=$(date +%s%N)
  JAVA_OPTS="${4:-}" "$1" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$2" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN >"$3" 2>&1 &
  PID=$!
  wait_healthy "$PORT" "$PID"
  t1=$(date +%s%N)
  T=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", (b - a) / 1e9}')
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; }
cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$PID/stat"; }
count() { # FILE: total flywaydb boot.flyway [from the AOT cache]
  printf 'classes %d, org.flywaydb %d, boot.flyway %d, from CDS or the AOT cache %d' "$(wc -l <"$1")" \
    "$(grep -c ' org\.flywaydb\.' "$1" || true)" "$(grep -c ' org\.springframework\.boot\.flyway\.' "$1" || true)" \
    "$(grep -c 'shared objects file' "$1" || true)"
}

for tag in A B; do
  launcher=${!tag}
  app=$(dirname "$(dirname "$launcher")")/target/berth
  echo "$tag: $launcher, AOT cache $(du -m "$app/berth.aot" | cut -f1) MB ($(stat -c %s "$app/berth.aot") bytes)"
  d=$WORK/cls-$tag
  mkdir -p "$d"
  for run in new restart; do
    BERTH_AOT=/nonexistent start "$launcher" "$d/data" "$d/$run.log" "-Xlog:class+load=info:file=$d/$run.cls"
    sleep 2; stop
    echo "$tag $run, no AOT cache: $(count "$d/$run.cls") (load $(load))"
  done
  start "$launcher" "$d/data" "$d/aot.log" "-Xlog:class+load=info:file=$d/aot.cls"
  sleep 2; stop
  echo "$tag restart, AOT cache: $(count "$d/aot.cls") (load $(load))"
done

for i in $(seq 1 "$PAIRS"); do
  for tag in A B; do
    d=$WORK/start-$tag-$i
    mkdir -p "$d"
    start "${!tag}" "$d/data" "$d/new.log"; c=$(cpu); stop
    new="$T s ($c s CPU, load $(load))"
    start "${!tag}" "$d/data" "$d/restart.log"; c=$(cpu); stop
    echo "$tag#$i healthy: new data dir $new, restart $T s ($c s CPU, load $(load))"
    rm -rf "$d"
  done
done

for i in $(seq 1 "$RSS_PAIRS"); do
  for tag in A B; do
    d=$WORK/rss-$tag-$i
    mkdir -p "$d"
    start "${!tag}" "$d/data" "$d/new.log"; stop
    start "${!tag}" "$d/data" "$d/restart.log"
    sleep 20
    echo "$tag#$i idle 20 s after a healthy restart: RSS $(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$PID/status") MB," \
      "$(awk '/^Threads:/ {print $2}' "/proc/$PID/status") threads (load $(load))"
    stop
    rm -rf "$d"
  done
done
