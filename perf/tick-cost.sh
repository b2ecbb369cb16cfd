#!/usr/bin/env bash
# The Java cost of one task-stats tick (sample every task, publish, reconcile the meters) with N tasks whose reader
# returns a cgroup-v1-shaped sample from memory: no kernel reads, so it is what the agent adds to the kernel's price,
# and its figures (CPU time per tick from the process CPU clock, bytes allocated per tick) hardly depend on the load.
# Runs each build in turn (alternated, ROUNDS times) with the shipped JVM options (bin/jvm.options).
#
# Usage: perf/tick-cost.sh N TICKS BUILD_HOME...   (a BUILD_HOME has bin/jvm.options and target/berth/{berth.jar,lib})
#   e.g. perf/tick-cost.sh 1000 100 /tmp/base .
set -euo pipefail
cd "$(dirname "$0")/.."
N=$1; TICKS=$2; shift 2
JAVA=${JAVA:-java}
WORK=$(mktemp -d /tmp/berth-tick-cost.XXXXXX); trap 'rm -rf "$WORK"' EXIT
echo "# perf/tick-cost.sh $N $TICKS, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "${ROUNDS:-2}"); do
  i=0
  for home in "$@"; do
    cp="$home/target/berth/berth.jar:$(ls "$home"/target/berth/lib/*.jar | tr '\n' ':')"
    mkdir -p "$WORK/$i"
    [[ -f "$WORK/$i/h/TickCost.class" ]] || "$(dirname "$(readlink -f "$(command -v "$JAVA")")")/javac" -d "$WORK/$i" -cp "$cp" perf/tick-cost/h/TickCost.java
    echo "== $home (round $round)"
    "$JAVA" @"$home/bin/jvm.options" -cp "$WORK/$i:$cp" h.TickCost "$N" "$TICKS" 2>&1 | grep '^round'
    i=$((i + 1))
  done
done
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
