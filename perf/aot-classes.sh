#!/usr/bin/env bash
# How many classes each packaging loads from the JDK 25 AOT cache, versus from jars. Unlike wall-clock start-up
# times this does not depend on machine load. Trains a cache for the extracted "-jar" form (what
# docker/Dockerfile uses) and for the --launcher form, then starts each once to the end of context refresh with
# -Xlog:class+load and counts the class sources.
# Usage: perf/aot-classes.sh
set -euo pipefail
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=$(ls "$ROOT"/target/berth-*.jar | head -1)
WORK=$(mktemp -d /tmp/berth-aot-classes.XXXXXX)
trap '[[ "${KEEP:-0}" == 1 ]] || rm -rf "$WORK"' EXIT
ARGS=(--server.address=127.0.0.1 --server.port=0 --berth.acl.enabled=false -Dspring.context.exit=onRefresh)
"$JAVA" -Djarmode=tools -jar "$JAR" extract --destination "$WORK/ext" --application-filename berth.jar >/dev/null
"$JAVA" -Djarmode=tools -jar "$JAR" extract --launcher --destination "$WORK/launcher" >/dev/null
main_ext=(-jar berth.jar)
main_launcher=(org.springframework.boot.loader.launch.JarLauncher)
echo "| form | classes loaded | from AOT cache | from jars/other | wall to refreshed (s) |"
echo "|---|---|---|---|---|"
for form in ext launcher; do
  dir="$WORK/$form"; declare -n main="main_$form"
  (cd "$dir" && "$JAVA" --enable-native-access=ALL-UNNAMED -XX:AOTCacheOutput=berth.aot -Dspring.context.exit=onRefresh \
      "${main[@]}" "${ARGS[@]:0:3}" --berth.data-dir="$WORK/train-$form" >"$WORK/train-$form.log" 2>&1)
  t0=$(date +%s.%N)
  (cd "$dir" && "$JAVA" --enable-native-access=ALL-UNNAMED -XX:AOTCache=berth.aot -Xlog:class+load:file="$WORK/cl-$form.txt" \
      -Dspring.context.exit=onRefresh "${main[@]}" "${ARGS[@]:0:3}" --berth.data-dir="$WORK/run-$form" >"$WORK/run-$form.log" 2>&1) || true
  t1=$(date +%s.%N)
  total=$(grep -c 'source:' "$WORK/cl-$form.txt")
  cached=$(grep -c 'source: shared objects file' "$WORK/cl-$form.txt")
  echo "| $form | $total | $cached | $((total - cached)) | $(awk "BEGIN {printf \"%.1f\", $t1-$t0}") |"
done
