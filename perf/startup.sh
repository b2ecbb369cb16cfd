#!/usr/bin/env bash
# Start-up time and memory of the Berth agent in four packagings:
#   fat      java -jar berth.jar
#   ext      extracted the way docker/Dockerfile does it (lib/ + thin jar, "java -jar")
#   ext-aot  the same plus a JDK 25 AOT cache (-XX:AOTCacheOutput training run, then -XX:AOTCache)
#   launcher extracted with --launcher (JarLauncher over BOOT-INF/), for comparison
#   launcher-aot  the same with an AOT cache trained on it (shows why the Dockerfile does not use --launcher)
# For each run: "Started ... in X seconds" from the log, RSS right after that line, RSS after 10 s idle.
#
# Usage: perf/startup.sh [runs-per-variant]      (default 3; builds the jar if missing)
# Env:   JAVA (default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java), VARIANTS="fat ext ext-aot launcher launcher-aot",
#        IDLE_SECONDS (10), KEEP=1 keeps the work directory.
set -euo pipefail

RUNS=${1:-3}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
VARIANTS=${VARIANTS:-"fat ext ext-aot launcher launcher-aot"}
IDLE_SECONDS=${IDLE_SECONDS:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=$(ls "$ROOT"/target/berth-*.jar 2>/dev/null | grep -v '\.original$' | head -1 || true)
if [[ -z "$JAR" ]]; then
  (cd "$ROOT" && ./mvnw -q -o package -DskipTests)
  JAR=$(ls "$ROOT"/target/berth-*.jar | head -1)
fi
WORK=$(mktemp -d /tmp/berth-startup.XXXXXX)
PID=""
cleanup() {
  if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi
  [[ "${KEEP:-0}" == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT

FLAGS=(--enable-native-access=ALL-UNNAMED)
# Only loopback, an ephemeral port, and a throw-away data dir per run.
APP_ARGS=(--server.address=127.0.0.1 --server.port=0 --berth.acl.enabled=false)

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

prepare() {
  case "$1" in
    fat) ;;
    ext|ext-aot)
      [[ -d "$WORK/ext" ]] || "$JAVA" -Djarmode=tools -jar "$JAR" extract --destination "$WORK/ext" \
          --application-filename berth.jar >/dev/null
      if [[ "$1" == ext-aot && ! -f "$WORK/ext/berth.aot" ]]; then
        local t0=$(date +%s.%N)
        (cd "$WORK/ext" && "$JAVA" "${FLAGS[@]}" -XX:AOTCacheOutput=berth.aot -Dspring.context.exit=onRefresh \
            -jar berth.jar "${APP_ARGS[@]}" --berth.data-dir="$WORK/train-data" >"$WORK/aot-training.log" 2>&1)
        local t1=$(date +%s.%N)
        echo "AOT training: $(awk "BEGIN {printf \"%.1f\", $t1-$t0}") s wall, cache $(du -m "$WORK/ext/berth.aot" | cut -f1) MB" >&2
      fi ;;
    launcher|launcher-aot)
      [[ -d "$WORK/launcher" ]] || "$JAVA" -Djarmode=tools -jar "$JAR" extract --launcher \
          --destination "$WORK/launcher" >/dev/null
      if [[ "$1" == launcher-aot && ! -f "$WORK/launcher/berth.aot" ]]; then
        local t0=$(date +%s.%N)
        (cd "$WORK/launcher" && "$JAVA" "${FLAGS[@]}" -XX:AOTCacheOutput=berth.aot -Dspring.context.exit=onRefresh \
            org.springframework.boot.loader.launch.JarLauncher "${APP_ARGS[@]}" --berth.data-dir="$WORK/train-data-l" \
            >"$WORK/aot-training-launcher.log" 2>&1)
        local t1=$(date +%s.%N)
        echo "AOT training (launcher): $(awk "BEGIN {printf \"%.1f\", $t1-$t0}") s wall, cache $(du -m "$WORK/launcher/berth.aot" | cut -f1) MB" >&2
      fi ;;
  esac
}

# Sets RESULT to: started_s process_s rss_started_mb rss_idle_mb (runs in this shell so the EXIT trap can
# always stop the JVM it started).
RESULT=""
run_once() {
  local variant=$1 i=$2 log="$WORK/$1-$2.log" data="$WORK/data-$1-$2"
  case "$variant" in
    fat)      (cd "$WORK" && exec "$JAVA" "${FLAGS[@]}" -jar "$JAR" "${APP_ARGS[@]}" --berth.data-dir="$data") >"$log" 2>&1 & ;;
    ext)      (cd "$WORK/ext" && exec "$JAVA" "${FLAGS[@]}" -jar berth.jar "${APP_ARGS[@]}" --berth.data-dir="$data") >"$log" 2>&1 & ;;
    ext-aot)  (cd "$WORK/ext" && exec "$JAVA" "${FLAGS[@]}" -XX:AOTCache=berth.aot -jar berth.jar "${APP_ARGS[@]}" --berth.data-dir="$data") >"$log" 2>&1 & ;;
    launcher) (cd "$WORK/launcher" && exec "$JAVA" "${FLAGS[@]}" org.springframework.boot.loader.launch.JarLauncher "${APP_ARGS[@]}" --berth.data-dir="$data") >"$log" 2>&1 & ;;
    launcher-aot) (cd "$WORK/launcher" && exec "$JAVA" "${FLAGS[@]}" -XX:AOTCache=berth.aot org.springframework.boot.loader.launch.JarLauncher "${APP_ARGS[@]}" --berth.data-dir="$data") >"$log" 2>&1 & ;;
  esac
  PID=$!
  local waited=0
  until grep -q 'Started Application in' "$log"; do
    if ! kill -0 "$PID" 2>/dev/null; then echo "variant $variant run $i died; log: $log" >&2; KEEP=1; exit 1; fi
    if (( waited > 1200 )); then echo "variant $variant run $i: no start after 120 s" >&2; KEEP=1; exit 1; fi
    sleep 0.1; waited=$((waited + 1))
  done
  local rss_started=$(rss_kb "$PID")
  sleep "$IDLE_SECONDS"
  local rss_idle=$(rss_kb "$PID")
  if grep -q 'Unable to map shared spaces\|shared class paths mismatch' "$log"; then
    echo "variant $variant run $i: AOT cache NOT used (see $log)" >&2
  fi
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  local line=$(grep -o 'Started Application in [0-9.]* seconds (process running for [0-9.]*)' "$log")
  local started=$(sed -E 's/.*in ([0-9.]+) seconds.*/\1/' <<<"$line")
  local process=$(sed -E 's/.*running for ([0-9.]+)\)/\1/' <<<"$line")
  RESULT="$started $process $((rss_started / 1024)) $((rss_idle / 1024))"
}

echo "# $(date -u +%FT%TZ) $("$JAVA" -version 2>&1 | head -1), $(nproc) cpus, jar $(du -m "$JAR" | cut -f1) MB, $RUNS runs, idle ${IDLE_SECONDS}s"
echo "| variant | run | Started in (s) | process running for (s) | RSS at start (MB) | RSS after ${IDLE_SECONDS} s idle (MB) |"
echo "|---|---|---|---|---|---|"
for variant in $VARIANTS; do
  prepare "$variant"
  for i in $(seq 1 "$RUNS"); do
    run_once "$variant" "$i"
    read -r started process rss_started rss_idle <<<"$RESULT"
    echo "| $variant | $i | $started | $process | $rss_started | $rss_idle |"
  done
done
