#!/usr/bin/env bash
# The agent's own cost, as in issue 15's table, for the agent started as shipped (bin/berth):
#   1. time from exec to a healthy /v1/agent/health (wall and CPU seconds): first on a new data dir, then a restart on it
#   2. idle: RSS, threads, CPU (% of a core) over a window, heap after a full GC
#   3. with N running raw_exec allocations (each N in turn, cumulative): RSS, threads, agent CPU over the same window
#      as perf/cgroup-reader.c reading the same cgroup files for the same tasks (ratio = the agent's price over the
#      kernel's), and the share of the host-stats and task-stats threads
#   4. after destroying them all: RSS (what the OS sees, no forced GC), then heap after a full GC
# Every figure is printed with the load average at the moment it was taken (the 1-minute figure of /proc/loadavg).
#
# Usage: perf/footprint.sh [N ...]          (default: 1000 2000)
# Env:   WINDOW=30 (CPU window, s), WINDOWS=1 (agent / C reader windows per N, back to back: the kernel's side
#        varies by ~±10 % from one window to the next), SETTLE=20 (wait after start, s), N_SETTLE=180 (wait after all N running: the
#        per-tick loops are interpreted until the JIT compiles them, ~60-100 ticks, and the heap trimmer gives back what
#        placing them used at its first quiet look after that busy phase), AFTER_SETTLE=60 (after destroy),
#        JAVA_OPTS (passed to bin/berth), LAUNCHER (default bin/berth), PAR=8 (parallel PUTs), KEEP=1 (keep data dir),
#        AGENT_ARGS (more agent arguments, e.g. --logging.level.dev.berth.config.HeapTrimmer=DEBUG; the log stays
#        in the work dir with KEEP=1), HIST=DIR (class histograms idle.txt / after.txt there, after the figures; DUMP=1: heap dumps too)
# Needs: a build (./mvnw -Paot package -DskipTests for the AOT cache; a plain `package` works, just starts slower),
#        gcc, curl, root (raw_exec tasks in cgroups).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS=("${@:-1000}")
[[ $# -gt 0 ]] || COUNTS=(1000 2000)
WINDOW=${WINDOW:-30}
WINDOWS=${WINDOWS:-1} # same-window agent / C reader measurements per N, one after the other
SETTLE=${SETTLE:-20}
N_SETTLE=${N_SETTLE:-180}
AFTER_SETTLE=${AFTER_SETTLE:-60} # after destroying: the heap trimmer looks every 30 s and trims after a quiet look
PAR=${PAR:-8}
LAUNCHER=${LAUNCHER:-bin/berth}
WORK=$(mktemp -d /tmp/berth-footprint.XXXXXX)
DATA="$WORK/data"
PREFIX="fp$$"
source perf/agent-lib.sh
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
AGENT=""

load() { cut -d' ' -f1 /proc/loadavg; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }                 # utime + stime of the whole process
thread_ticks() { # $1 = pid, $2 = thread name prefix (comm is cut at 15 characters)
  local sum=0 t
  for t in /proc/"$1"/task/*; do
    if [[ "$(cat "$t/comm" 2>/dev/null)" == "$2"* ]]; then sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))); fi
  done
  echo "$sum"
}
rss_mb() { awk '/^VmRSS:/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }
threads() { awk '/^Threads:/ {print $2}' "/proc/$1/status"; }
HZ=$(getconf CLK_TCK)
pct() { awk -v a="$1" -v b="$2" -v w="$3" -v hz="$HZ" 'BEGIN {printf "%.2f", 100 * (b - a) / hz / w}'; }
JAVA_BIN=""
heap_after_gc_mb() { # two full GCs (the second frees what reference processing released in the first), then the used heap
  "$JCMD" "$AGENT" GC.run >/dev/null
  "$JCMD" "$AGENT" GC.run >/dev/null
  "$JCMD" "$AGENT" GC.heap_info | awk '/^ *(DefNew|Tenured|PSYoungGen|ParOldGen|def new generation|tenured generation|garbage-first heap) / {for (i = 1; i <= NF; i++) if ($i == "used") {v = $(i + 1); sub(/K,?/, "", v); s += v}} END {printf "%.1f", s / 1024}' | head -1
}
# HIST=DIR: after each heap figure, a class histogram (idle.txt / after.txt; perf/histdiff.py) and with DUMP=1 a heap
# dump (idle.hprof / after.hprof; perf/hprof-tables.py) into DIR, taken after the figure so they change no window
snapshot() {
  [[ -n "${HIST:-}" ]] || return 0
  mkdir -p "$HIST"
  "$JCMD" "$AGENT" GC.class_histogram >"$HIST/$1.txt"
  [[ "${DUMP:-0}" != 1 ]] || "$JCMD" "$AGENT" GC.heap_dump -all "$HIST/$1.hprof" >/dev/null
}
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$(load)"; }

cleanup() {
  if [[ -n "$AGENT" ]] && kill -0 "$AGENT" 2>/dev/null; then
    destroy_all || true
    kill "$AGENT" 2>/dev/null || true
    wait "$AGENT" 2>/dev/null || true
  fi
  [[ "${KEEP:-0}" == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT

export -f put; export BASE
gcc -O2 -o "$WORK/cgroup-reader" perf/cgroup-reader.c
mkdir -p "$DATA"
echo "# perf/footprint.sh $(date -u +%FT%TZ), $(nproc) cpus, kernel $(uname -r), counts: ${COUNTS[*]}, window ${WINDOW}s, settle ${SETTLE}s, after N running ${N_SETTLE}s"
echo "# launcher: $LAUNCHER, JAVA_OPTS='${JAVA_OPTS:-}'"

wait_for_agent() { wait_healthy "$PORT" "$AGENT" || { echo "agent exited:"; tail -20 "$WORK/agent.log"; exit 1; }; }
start_agent() {
  "$LAUNCHER" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$DATA" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN ${AGENT_ARGS:-} >>"$WORK/agent.log" 2>&1 &
  AGENT=$!
}

# first start: a new data dir (the state database is created); then a restart on it, which is what an agent does
# every other time (measured first, the agent of the second start is the one measured below)
t0=$(date +%s%N); start_agent; wait_for_agent; t1=$(date +%s%N)
first_cpu=$(ticks "$AGENT")
kill "$AGENT"; wait "$AGENT" 2>/dev/null || true
sleep 2
t2=$(date +%s%N); start_agent; wait_for_agent; t3=$(date +%s%N)
start_cpu=$(ticks "$AGENT")
JAVA_BIN=$(readlink -f "/proc/$AGENT/exe")
JCMD="$(dirname "$JAVA_BIN")/jcmd"
JSTAT="$(dirname "$JAVA_BIN")/jstat"
gc_counts() { "$JSTAT" -gc "$AGENT" | awk 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i} NR == 2 {print $col["YGC"], $col["FGC"]}'; }
echo "# java: $JAVA_BIN ($("$JAVA_BIN" -version 2>&1 | head -1))"
echo "# command line: $(tr '\0' ' ' <"/proc/$AGENT/cmdline" | cut -c1-600)"
if grep -q 'Unable to map shared spaces\|shared class paths mismatch\|AOT cache.*not' "$WORK/agent.log"; then echo "# warning: the AOT cache was not used"; fi
echo
echo "| figure | value | load average |"
echo "|---|---|---|"
row "time to healthy /v1/agent/health, new data dir" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f s", (b - a) / 1e9}') ($(awk -v t="$first_cpu" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz}') s CPU)"
row "time to healthy /v1/agent/health, restart on it" "$(awk -v a="$t2" -v b="$t3" 'BEGIN {printf "%.2f s", (b - a) / 1e9}') ($(awk -v t="$start_cpu" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz}') s CPU)"

sleep "$SETTLE"
c0=$(ticks "$AGENT"); sleep "$WINDOW"; c1=$(ticks "$AGENT")
row "idle: RSS / threads / CPU" "$(rss_mb "$AGENT") MB / $(threads "$AGENT") / $(pct "$c0" "$c1" "$WINDOW") % of a core"
IDLE_HEAP=$(heap_after_gc_mb)
row "idle: heap used after a full GC" "$IDLE_HEAP MB"
sleep 2
row "idle: RSS after that GC" "$(rss_mb "$AGENT") MB"
snapshot idle

submitted=0
for N in "${COUNTS[@]}"; do
  s0=$(date +%s)
  seq $((submitted + 1)) "$N" | xargs -P "$PAR" -I{} bash -c "put $PREFIX-{}"
  submitted=$N
  for _ in $(seq 1 900); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
  row "N=$N: running allocations (submitted in)" "$(running) ($(( $(date +%s) - s0 )) s)"
  sleep "$N_SETTLE"
  # the files the agent's task-stats reader opens for these tasks (cgroup v1; v2: the unified directory's files)
  : >"$WORK/files"
  for dir in /sys/fs/cgroup/memory/berth-*/"$PREFIX"-*; do
    [[ -d "$dir" ]] || continue
    name=${dir#/sys/fs/cgroup/memory/}
    for f in memory.usage_in_bytes memory.max_usage_in_bytes memory.memsw.usage_in_bytes memory.kmem.usage_in_bytes \
             memory.kmem.max_usage_in_bytes memory.stat; do [[ -e "$dir/$f" ]] && echo "$dir/$f"; done
    echo "/sys/fs/cgroup/cpuacct/$name/cpuacct.usage"; echo "/sys/fs/cgroup/cpuacct/$name/cpuacct.stat"
    echo "/sys/fs/cgroup/cpu/$name/cpu.stat"
  done >>"$WORK/files"
  for dir in /sys/fs/cgroup/berth-*/"$PREFIX"-*; do
    [[ -d "$dir" ]] || continue
    for f in memory.current memory.peak memory.swap.current memory.stat cpu.stat cpu.pressure memory.pressure io.pressure; do [[ -e "$dir/$f" ]] && echo "$dir/$f"; done
  done >>"$WORK/files"
  interval_ms=1000
  for w in $(seq 1 "$WINDOWS"); do
  tag=""; [[ "$WINDOWS" -gt 1 ]] && tag=" (window $w of $WINDOWS)"
  "$WORK/cgroup-reader" "$WINDOW" "$interval_ms" <"$WORK/files" >"$WORK/reader.out" &
  reader=$!
  c0=$(ticks "$AGENT"); h0=$(thread_ticks "$AGENT" berth-host-stat); s0t=$(thread_ticks "$AGENT" berth-task-stat)
  read -r y0 f0 <<<"$(gc_counts)"
  sleep "$WINDOW"
  c1=$(ticks "$AGENT"); h1=$(thread_ticks "$AGENT" berth-host-stat); s1t=$(thread_ticks "$AGENT" berth-task-stat)
  wait "$reader"
  reader_pct=$(sed -E 's/.*cpu_pct=([0-9.]+).*/\1/' "$WORK/reader.out")
  agent_pct=$(pct "$c0" "$c1" "$WINDOW")
  row "N=$N: RSS / threads$tag" "$(rss_mb "$AGENT") MB / $(threads "$AGENT")"
  read -r y1 f1 <<<"$(gc_counts)"
  row "N=$N: agent CPU, no requests$tag" "$agent_pct % of a core"
  row "N=$N: collections in that window (young / full)$tag" "$((y1 - y0)) / $((f1 - f0))"
  row "N=$N: of which task-stats threads / host-stats thread$tag" "$(pct "$s0t" "$s1t" "$WINDOW") % / $(pct "$h0" "$h1" "$WINDOW") %"
  row "N=$N: C reader, same $(wc -l <"$WORK/files") files, pread, same window$tag" "$reader_pct % ($(cat "$WORK/reader.out"))"
  row "N=$N: agent CPU / C reader CPU$tag" "$(awk -v a="$agent_pct" -v b="$reader_pct" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "n/a"}')"
  done
  "$WORK/cgroup-reader" -o 10 "$interval_ms" <"$WORK/files" >"$WORK/reader-open.out"
  row "N=$N: C reader opening and closing each file (10 s)" "$(sed -E 's/.*cpu_pct=([0-9.]+).*/\1/' "$WORK/reader-open.out") %"
  row "N=$N: descriptors held by the agent" "$(ls /proc/"$AGENT"/fd | wc -l)"
done

s0=$(date +%s)
destroy_all
for _ in $(seq 1 900); do [[ "$(running)" -eq 0 ]] 2>/dev/null && break; sleep 1; done
row "destroyed all (in)" "$(( $(date +%s) - s0 )) s"
sleep "$AFTER_SETTLE"
c0=$(ticks "$AGENT"); sleep "$WINDOW"; c1=$(ticks "$AGENT")
row "after destroy: RSS / threads / CPU (no forced GC)" "$(rss_mb "$AGENT") MB / $(threads "$AGENT") / $(pct "$c0" "$c1" "$WINDOW") % of a core"
AFTER_HEAP=$(heap_after_gc_mb)
row "after destroy: heap used after a full GC (idle: $IDLE_HEAP MB)" "$AFTER_HEAP MB ($(awk -v a="$AFTER_HEAP" -v b="$IDLE_HEAP" 'BEGIN {printf "%+.0f", 100 * (a - b) / b}') %)"
sleep 2
row "after destroy: RSS after that GC" "$(rss_mb "$AGENT") MB"
row "after destroy: descriptors held by the agent" "$(ls /proc/"$AGENT"/fd | wc -l)"
snapshot after
