#!/usr/bin/env bash
# Where a start on a new data dir spends its time, for launchers side by side (docs/benchmarks/footprint.md).
# Each round starts every launcher once, in the order given, on a new data dir at INFO, until healthy; per start:
#   healthy          seconds from exec to a healthy /v1/agent/health, and the agent's CPU seconds by then
#   exec->Starting   ms to the "Starting Application" line (JVM, AOT cache, Boot's environment and logging)
#   Starting->needs  ms from there to StateSchema's "needs Flyway" line (the context up to the schema)
#   needs->after     ms from there to the first line after Flyway's "Successfully applied" (Flyway's part)
# then the median of each figure per launcher. The 1-minute load average is printed beside every start.
#
# Usage: perf/newdir-phases.sh ROUNDS TAG=LAUNCHER[:JAVA_OPTS] ...
#        e.g. perf/newdir-phases.sh 6 base=/tmp/base/bin/berth new=bin/berth "newdbg=bin/berth:-Dfoo=1"
set -euo pipefail
source "$(dirname "$0")/agent-lib.sh"
ROUNDS=$1; shift
WORK=$(mktemp -d /tmp/berth-newdir-phases.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ms() { date -d "$1" +%s%3N; }
stamp() { grep -m1 ${3:+-A1} "$1" "$2" | tail -1 | cut -c1-24; } # PATTERN FILE [next line]
for i in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    tag=${spec%%=*} rest=${spec#*=}; launcher=${rest%%:*} opts=
    [ "$rest" != "$launcher" ] && opts=${rest#*:}
    d=$WORK/$tag-$i
    port=$(free_port); t0=$(date +%s%N)
    JAVA_OPTS="$opts" "$launcher" --server.address=127.0.0.1 --server.port="$port" --berth.data-dir="$d" \
      --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false >"$d.log" 2>&1 &
    pid=$!
    wait_healthy "$port" "$pid"
    t1=$(date +%s%N)
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$pid/stat")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    st=$(ms "$(stamp 'Starting Application' "$d.log")") nf=$(ms "$(stamp 'needs Flyway' "$d.log")")
    nx=$(ms "$(stamp 'Successfully applied' "$d.log" next)")
    echo "$tag#$i healthy $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", (b - a) / 1e9}') s cpu $cpu" \
      "exec->Starting $((st - t0 / 1000000)) Starting->needs $((nf - st)) needs->after $((nx - nf)) ms" \
      "load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$WORK/all"
    rm -rf "$d" "$d.log"
  done
done
python3 - "$WORK/all" <<'PY'
import re, statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+)#\d+ healthy ([\d.]+) s cpu ([\d.]+) exec->Starting (-?\d+) Starting->needs (-?\d+) '
                 r'needs->after (-?\d+) ms load ([\d.]+)', line)
    if m:
        rows.setdefault(m.group(1), []).append([float(x) for x in m.groups()[1:]])
for tag, r in rows.items():
    c = list(zip(*r))
    print(f"{tag}: n={len(r)} median healthy {st.median(c[0]):.2f} s ({min(c[0]):.2f}-{max(c[0]):.2f}), "
          f"CPU {st.median(c[1]):.2f} s, exec->Starting {st.median(c[2]):.0f}, Starting->needs {st.median(c[3]):.0f}, "
          f"needs->after {st.median(c[4]):.0f} ms, load {min(c[5])}-{max(c[5])}")
PY
