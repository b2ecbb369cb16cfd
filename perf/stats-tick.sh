#!/usr/bin/env bash
# The agent's task-stats tick over N real cgroup v1 task directories (each holding one `sleep`), without an agent: the
# real readers, collector and meters of each build, alternated, beside the C reader (perf/cgroup-reader.c) over the
# same files at the same pace. A quick A/B of the per-task read path; perf/footprint.sh is the figure of record.
# Prints process CPU per tick (ms, kernel reads included) per build and the C reader's per pass.
#
# Usage: perf/stats-tick.sh N BUILD_HOME...   (a BUILD_HOME has bin/jvm.options and target/berth/{berth.jar,lib})
#   env: INTERVAL_MS (100), TICKS per window (100), WARM ticks (600), ROUNDS windows per build run (3), PASSES (2),
#        JAVA_OPTS (added to the build's bin/jvm.options), WRAP (a command put before java, e.g. "perf record -g -o F --"),
#        TOGETHER=1: the builds run at the same time, each pinned to its own core (swapped from pass to pass), so a
#        machine that speeds up or slows down does so for all of them (compare the builds window by window)
# Needs root, cgroup v1 (memory, cpu, cpuacct), gcc, a JDK 22+ (JAVA, default: the newest under /usr/lib/jvm).
set -euo pipefail
cd "$(dirname "$0")/.."
N=$1; shift
INTERVAL_MS=${INTERVAL_MS:-100}; TICKS=${TICKS:-100}; WARM=${WARM:-600}; ROUNDS=${ROUNDS:-3}
JAVA=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java | sort -t/ -k4 -V -r | head -1)}
WORK=$(mktemp -d /tmp/berth-stats-tick.XXXXXX)
NAME="berth-bench-tick-$$"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for h in memory cpu cpuacct; do
    [[ -d /sys/fs/cgroup/$h/$NAME ]] || continue
    find "/sys/fs/cgroup/$h/$NAME" -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null || true
    rmdir "/sys/fs/cgroup/$h/$NAME" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
gcc -O2 -o "$WORK/cgroup-reader" perf/cgroup-reader.c
for i in $(seq 1 "$N"); do
  sleep 3600 & p=$!; PIDS+=("$p")
  dirs=()
  for h in memory cpuacct cpu; do
    d=/sys/fs/cgroup/$h/$NAME/t$i
    mkdir -p "$d"; echo "$p" > "$d/cgroup.procs"; dirs+=("$d")
  done
  echo "${dirs[*]}" >> "$WORK/dirs"
  for f in memory.usage_in_bytes memory.max_usage_in_bytes memory.memsw.usage_in_bytes memory.kmem.usage_in_bytes \
      memory.kmem.max_usage_in_bytes memory.stat; do [[ -e "${dirs[0]}/$f" ]] && echo "${dirs[0]}/$f"; done >> "$WORK/files"
  printf '%s\n%s\n%s\n' "${dirs[1]}/cpuacct.usage" "${dirs[1]}/cpuacct.stat" "${dirs[2]}/cpu.stat" >> "$WORK/files"
done
echo "# perf/stats-tick.sh $N $*, $(wc -l < "$WORK/files") files, interval ${INTERVAL_MS} ms, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
for home in "$@"; do
  mkdir -p "$WORK/c$i"
  cp="$home/target/berth/berth.jar:$(ls "$home"/target/berth/lib/*.jar | tr '\n' ':')"
  "$(dirname "$(readlink -f "$JAVA")")/javac" -nowarn -d "$WORK/c$i" -cp "$cp" perf/stats-tick/dev/berth/stats/StatsTick.java 2>&1 | grep -v '^Note:' || true
  i=$((i + 1))
done
seconds=$(awk -v t="$TICKS" -v r="$ROUNDS" -v ms="$INTERVAL_MS" 'BEGIN {printf "%.1f", t * r * ms / 1000}')
ncpu=$(nproc)
for pass in $(seq 1 "${PASSES:-2}"); do
  i=0
  together=()
  for home in "$@"; do
    cp="$home/target/berth/berth.jar:$(ls "$home"/target/berth/lib/*.jar | tr '\n' ':')"
    if [[ ${TOGETHER:-0} == 1 ]]; then
      core=$(( (i + pass - 1) % ncpu ))
      taskset -c "$core" ${WRAP:-} "$JAVA" @"$home/bin/jvm.options" ${JAVA_OPTS:-} -cp "$WORK/c$i:$cp" dev.berth.stats.StatsTick \
        "$WORK/dirs" "$WARM" "$TICKS" "$INTERVAL_MS" "$ROUNDS" 2>&1 | grep '^round' | sed "s#^#$home (pass $pass, core $core) #" > "$WORK/out$i" &
      together+=($!)
    else
      echo "== $home (pass $pass, load $(cut -d' ' -f1 /proc/loadavg))"
      ${WRAP:-} "$JAVA" @"$home/bin/jvm.options" ${JAVA_OPTS:-} -cp "$WORK/c$i:$cp" dev.berth.stats.StatsTick "$WORK/dirs" "$WARM" "$TICKS" "$INTERVAL_MS" "$ROUNDS" 2>&1 | grep '^round'
    fi
    i=$((i + 1))
  done
  if [[ ${TOGETHER:-0} == 1 ]]; then
    wait "${together[@]}"
    echo "== together (pass $pass, load $(cut -d' ' -f1 /proc/loadavg))"
    for j in $(seq 0 $((i - 1))); do cat "$WORK/out$j"; done
  fi
  echo "== C reader (pass $pass): $("$WORK/cgroup-reader" "$seconds" "$INTERVAL_MS" < "$WORK/files" | awk -v w="$seconds" -v ms="$INTERVAL_MS" '{for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}; printf "%.3f ms CPU per pass (%s samples), %s", (v["user_s"] + v["sys_s"]) * 1000 / v["samples"], v["samples"], $0}')"
done
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
