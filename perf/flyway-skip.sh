#!/usr/bin/env bash
# perf/flyway-skip.sh [ROUNDS]: the start-up schema step on an up-to-date state database, Flyway built and migrate()d vs
# state.SchemaLook (no Flyway), alternating, each sample a fresh JVM with the agent's JVM options (no AOT cache).
# Needs `./mvnw -Paot package` (target/berth/). Results: docs/benchmarks/state-store.md.
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
"$JAVAC" -d "$out" -cp "$CP" perf/FlywaySkipBench.java
# an up-to-date database: the first run migrates it
"$JAVA" $OPTS -cp "$out:$CP" FlywaySkipBench flyway "$work/state/berth" > /dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$ROUNDS"); do
  for mode in flyway look; do
    "$JAVA" $OPTS -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$out:$CP" FlywaySkipBench $mode "$work/state/berth" 2>/dev/null \
      | grep -E '^(flyway|look) '
  done
done | tee "$work/samples"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Flyway classes a look loads (expected: none)
echo "org.flywaydb classes loaded by a look: $("$JAVA" $OPTS -Xlog:class+load=info -cp "$out:$CP" FlywaySkipBench look "$work/state/berth" \
  2>/dev/null | grep -c ' org\.flywaydb\.' || true)"
grep '^look ' "$work/samples" | sed 's/.*list \([0-9.]*\) ms.*/\1/' | sort -n \
  | awk '{a[NR]=$1} END {printf "listing the bundled scripts: median %.1f ms (min %.1f, max %.1f, n=%d)\n", a[int((NR+1)/2)], a[1], a[NR], NR}'
grep '^look ' "$work/samples" | sed 's/.*list again \([0-9.]*\) ms.*/\1/' | sort -n \
  | awk '{a[NR]=$1} END {printf "listing them again (warm): median %.2f ms (min %.2f, max %.2f, n=%d)\n", a[int((NR+1)/2)], a[1], a[NR], NR}'
for mode in flyway look; do
  grep "^$mode " "$work/samples" | sed 's/.*migrate step \([0-9.]*\) ms/\1/' | sort -n \
    | awk -v m=$mode '{a[NR]=$1} END {printf "%s: median %.1f ms (min %.1f, max %.1f, n=%d)\n", m, a[int((NR+1)/2)], a[1], a[NR], NR}'
done
