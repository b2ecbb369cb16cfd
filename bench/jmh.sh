#!/usr/bin/env bash
# Runs the JMH benchmarks in src/jmh/java (profile `jmh`). Arguments go to JMH, e.g. bench/jmh.sh TaskSampleBenchmark -f 1
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -Pjmh -Dberth.prereqs.skip=true test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/jmh.classpath
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[ -x "$java" ] || java=java
exec "$java" --enable-native-access=ALL-UNNAMED -cp "target/test-classes:target/classes:$(cat target/jmh.classpath)" \
  org.openjdk.jmh.Main "$@"
