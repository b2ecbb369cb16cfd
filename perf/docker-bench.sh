#!/usr/bin/env bash
# Docker driver measurements against the local engine (.ci/docker-setup.sh): start latency and stats cost.
#   perf/docker-bench.sh [starts=20] [containers=10]
# Results and the machine they came from: docs/benchmarks/docker.md.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/docker-setup.sh >/dev/null
./mvnw -q -o test-compile -Dberth.prereqs.skip=true
./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
exec /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED \
    -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
    dev.berth.driver.docker.DockerDriverBench "${1:-20}" "${2:-10}"
