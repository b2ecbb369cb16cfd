#!/usr/bin/env bash
# Docker crash-reconciliation cost and the bounded-call overhead, against the local engine (.ci/docker-setup.sh).
#   perf/docker-reconcile-bench.sh [orphans=50] [calls=1000]
# Results and the machine they came from: docs/benchmarks/docker.md.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/docker-setup.sh >/dev/null
./mvnw -q -o test-compile -Dberth.prereqs.skip=true
./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
exec /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED \
    -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
    dev.berth.driver.docker.DockerReconcileBench "${1:-50}" "${2:-1000}"
