#!/usr/bin/env bash
# bench/flyway-skip.sh [ROUNDS]: the start-up Flyway step on an up-to-date state database, Flyway.migrate() vs the
# CurrentSchemaMigrationStrategy's look, alternating, each sample a fresh JVM with the agent's JVM options (no AOT cache).
# Needs `./mvnw -Paot package` (target/berth/). Results: docs/benchmarks-flyway.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-10}
# Java 21+ as bin/berth picks it: BERTH_JAVA, else the newest JDK under /usr/lib/jvm
JAVA=${BERTH_JAVA:-$(ls -d /usr/lib/jvm/*/bin/java | sort -t- -k2 -V | tail -n 1)}
JAVAC=$(dirname "$JAVA")/javac
CP="target/berth/berth.jar:target/berth/lib/*"
OPTS=$(grep -v '^#' bin/jvm.options | grep -v AOT | tr '\n' ' ')
work=$(mktemp -d /tmp/berth-flyway-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$work/classes
"$JAVAC" -d "$out" -cp "$CP" bench/FlywaySkipBench.java
# an up-to-date database: the first run migrates it
"$JAVA" $OPTS -cp "$out:$CP" FlywaySkipBench flyway "$work/state/berth" > /dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$ROUNDS"); do
  for mode in flyway strategy; do
    "$JAVA" $OPTS -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$out:$CP" FlywaySkipBench $mode "$work/state/berth" 2>/dev/null \
      | grep -E '^(flyway|strategy) '
  done
done | tee "$work/samples"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in flyway strategy; do
  grep "^$mode " "$work/samples" | sed 's/.*migrate step \([0-9.]*\) ms/\1/' | sort -n \
    | awk -v m=$mode '{a[NR]=$1} END {printf "%s: median %.1f ms (min %.1f, max %.1f, n=%d)\n", m, a[int((NR+1)/2)], a[1], a[NR], NR}'
done
