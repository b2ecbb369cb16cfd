#!/usr/bin/env bash
# Agent CPU with N running raw_exec allocations for two builds, alternated on the same tasks: the allocations are
# submitted once (to build A), then each round restarts A and B in turn on that data dir (tasks keep running across a
# restart) and measures, over WINDOW s after SETTLE s: agent CPU, the task-stats and host-stats threads, young GCs,
# and perf/cgroup-reader.c reading the same files in the same window. The figures are printed per round with the
# load average, so that builds are compared in the same machine state.
#
# Usage: perf/stats-ab.sh N ROUNDS LAUNCHER_A LAUNCHER_B      (e.g. perf/stats-ab.sh 1000 3 /tmp/base/bin/berth bin/berth)
# Env:   WINDOW=30, SETTLE=20 (idle), RESTART_SETTLE=90 (after a restart with N tasks: the restore is heavy), PAR=8;
#        IDLE=1 also measures each build with no allocations (before submitting)
set -euo pipefail
cd "$(dirname "$0")/.."
N=$1; ROUNDS=$2; A=$3; B=$4
WINDOW=${WINDOW:-30}; SETTLE=${SETTLE:-20}; RESTART_SETTLE=${RESTART_SETTLE:-90}; PAR=${PAR:-8}
WORK=$(mktemp -d /tmp/berth-stats-ab.XXXXXX); DATA="$WORK/data"; mkdir -p "$DATA"
PREFIX="ab$$"
source perf/agent-lib.sh
PORT=$(free_port); BASE="http://127.0.0.1:$PORT"; AGENT=""
export -f put; export BASE
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
thread_ticks() { local sum=0 t; for t in /proc/"$1"/task/*; do
  if [[ "$(cat "$t/comm" 2>/dev/null)" == "$2"* ]]; then sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))); fi; done; echo "$sum"; }
pct() { awk -v a="$1" -v b="$2" -v w="$WINDOW" -v hz="$HZ" 'BEGIN {printf "%.2f", 100 * (b - a) / hz / w}'; }
ygc() { "$(dirname "$(readlink -f "/proc/$AGENT/exe")")/jstat" -gc "$AGENT" | awk 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 {print $c["YGC"]}'; }
start() { "$1" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$DATA" --berth.drivers.raw-exec.enabled=true \
  --berth.acl.enabled=false --logging.level.root=WARN >>"$WORK/agent.log" 2>&1 & AGENT=$!; wait_healthy "$PORT" "$AGENT"; }
stop() { kill "$AGENT"; wait "$AGENT" 2>/dev/null || true; AGENT=""; }
cleanup() { if [[ -z "$AGENT" ]]; then start "$A" || true; fi; destroy_all || true
  for _ in $(seq 1 300); do [[ "$(running)" -eq 0 ]] 2>/dev/null && break; sleep 1; done; stop || true; rm -rf "$WORK"; }
trap cleanup EXIT
gcc -O2 -o "$WORK/cgroup-reader" perf/cgroup-reader.c
measure() { # $1 = label, $2 = with reader (1/0), $3 = settle (s)
  sleep "$3"
  local reader=""
  if [[ "$2" == 1 ]]; then "$WORK/cgroup-reader" "$WINDOW" 1000 <"$WORK/files" >"$WORK/reader.out" & reader=$!; fi
  local c0 s0 h0 y0 c1 s1 h1 y1
  c0=$(ticks "$AGENT"); s0=$(thread_ticks "$AGENT" berth-task-stat); h0=$(thread_ticks "$AGENT" berth-host-stat); y0=$(ygc)
  sleep "$WINDOW"
  c1=$(ticks "$AGENT"); s1=$(thread_ticks "$AGENT" berth-task-stat); h1=$(thread_ticks "$AGENT" berth-host-stat); y1=$(ygc)
  local r="-"; if [[ -n "$reader" ]]; then wait "$reader"; r=$(sed -E 's/.*cpu_pct=([0-9.]+).*/\1/' "$WORK/reader.out"); fi
  local agent; agent=$(pct "$c0" "$c1")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$(awk '/^VmRSS:/ {printf "%d MB", $2 / 1024}' "/proc/$AGENT/status")" \
    "$agent" "$(pct "$s0" "$s1")" "$(pct "$h0" "$h1")" "$((y1 - y0))" "$r" \
    "$(awk -v a="$agent" -v b="$r" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')" "$(cut -d' ' -f1 /proc/loadavg)"
}
echo "# perf/stats-ab.sh $N $ROUNDS, $(date -u +%FT%TZ), $(nproc) cpus, window ${WINDOW}s, settle ${SETTLE}s; A=$A B=$B"
echo "| build | RSS | agent CPU % | task-stats threads % | host-stats % | young GCs | C reader % | agent / C | load |"
echo "|---|---|---|---|---|---|---|---|---|"
if [[ "${IDLE:-0}" == 1 ]]; then for L in A B; do start "${!L}"; measure "$L idle" 0 "$SETTLE"; stop; done; fi
start "$A"
seq 1 "$N" | xargs -P "$PAR" -I{} bash -c "put $PREFIX-{}"
for _ in $(seq 1 900); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
for dir in /sys/fs/cgroup/memory/berth-*/"$PREFIX"-*; do
  [[ -d "$dir" ]] || continue; name=${dir#/sys/fs/cgroup/memory/}
  for f in memory.usage_in_bytes memory.max_usage_in_bytes memory.memsw.usage_in_bytes memory.kmem.usage_in_bytes \
           memory.kmem.max_usage_in_bytes memory.stat; do [[ -e "$dir/$f" ]] && echo "$dir/$f"; done
  echo "/sys/fs/cgroup/cpuacct/$name/cpuacct.usage"; echo "/sys/fs/cgroup/cpuacct/$name/cpuacct.stat"; echo "/sys/fs/cgroup/cpu/$name/cpu.stat"
done >"$WORK/files"
for dir in /sys/fs/cgroup/berth-*/"$PREFIX"-*; do
  [[ -d "$dir" ]] || continue
  for f in memory.current memory.peak memory.swap.current memory.stat cpu.stat; do [[ -e "$dir/$f" ]] && echo "$dir/$f"; done
done >>"$WORK/files"
echo "# $(running) running, $(wc -l <"$WORK/files") files"
stop
for round in $(seq 1 "$ROUNDS"); do
  for L in A B; do
    start "${!L}"
    for _ in $(seq 1 120); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
    measure "$L (round $round)" 1 "$RESTART_SETTLE"
    stop
  done
done
