#!/usr/bin/env bash
# Soak (issue 14): N allocation start/stop cycles against one agent, then what it holds compared with before.
# One cycle: PUT a raw_exec alloc (`sleep 3600`), wait until it is running, DELETE it, wait until it is gone (404).
# Reported before and after the cycles: heap used after a full GC (jcmd GC.run + jstat), RSS, threads, open file
# descriptors, task cgroups, mounts under the data dir, alloc dirs, live task processes — and the load average.
# Usage: perf/soak.sh [N=10000] [PAR=4]   (runs target/berth-*.jar, else target/classes: build with ./mvnw package or compile)
# Starts its own agent on a free loopback port with a throw-away data dir (KEEP=1 keeps it), stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
PAR=${2:-4}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JDK_BIN=$(dirname "$JAVA")
DATA=$(mktemp -d /tmp/berth-soak.XXXXXX)
BASE="http://127.0.0.1:$PORT"
TAG="soak$$"
# the packaged jar, or (no jar built) the compiled classes plus the dependency classpath Maven writes
JAR=$(ls target/berth-*.jar 2>/dev/null | grep -v original | head -1 || true)
if [ -n "$JAR" ]; then
  LAUNCH=(-jar "$JAR")
else
  [ -f target/classpath.txt ] || ./mvnw -q -B -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
  LAUNCH=(-cp "target/classes:$(cat target/classpath.txt)" dev.berth.Application)
fi

"$JAVA" --enable-native-access=ALL-UNNAMED -Xmx512m "${LAUNCH[@]}" --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN >"$DATA/agent.log" 2>&1 &
AGENT=$!
cleanup() {
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  pgrep -f -- "$DATA/drivers" | xargs -r kill -9 2>/dev/null || true   # only the task processes of this data dir
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"
}
trap cleanup EXIT
for _ in $(seq 1 180); do
  kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
  curl -sf "$BASE/actuator/health/readiness" >/dev/null && break; sleep 1
done
echo "agent pid $AGENT on $BASE, data $DATA, $N cycles, $PAR in parallel"
NODE_SHORT=$(curl -s "$BASE/v1/node/self" | grep -o '"ID":"[^"]*"' | head -1 | cut -d'"' -f4 | cut -c1-8)

cycle() { # $1 = alloc id; prints nothing on success, the failure otherwise
  local id=$1 s
  curl -sf -o /dev/null -X PUT "$BASE/v1/client/allocation/$id" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$id\",\"Name\":\"soak.g[0]\",\"JobID\":\"soak\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"soak\",\"Name\":\"soak\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"KillTimeout\":2000000000,\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}" || { echo "PUT $id failed"; return; }
  for _ in $(seq 1 600); do
    s=$(curl -s "$BASE/v1/allocation/$id" | grep -o '"ClientStatus":"[a-z]*"' | cut -d'"' -f4)
    [ "$s" = running ] && break
    [ "$s" = failed ] && { echo "$id failed"; break; }
    sleep 0.05
  done
  curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/$id"
  for _ in $(seq 1 600); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/v1/allocation/$id")" = 404 ] && return
    sleep 0.05
  done
  echo "$id not gone after DELETE"
}
export -f cycle; export BASE

measure() { # $1 = label
  "$JDK_BIN/jcmd" "$AGENT" GC.run >/dev/null
  sleep 2
  local heap rss threads fds cgroups mounts dirs procs
  heap=$("$JDK_BIN/jstat" -gc "$AGENT" | awk 'NR==2 {printf "%.1f", ($3+$4+$6+$8)/1024}')
  rss=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' /proc/"$AGENT"/status)
  threads=$(awk '/Threads/ {print $2}' /proc/"$AGENT"/status)
  fds=$(ls /proc/"$AGENT"/fd | wc -l)
  # task cgroups live under a per-node parent berth-<node short ID> (in every v1 hierarchy, or once in v2)
  cgroups=$( (find /sys/fs/cgroup -mindepth 2 -maxdepth 6 -type d -path "*/berth-$NODE_SHORT/*" 2>/dev/null || true) | wc -l)
  mounts=$(grep -c -- "$DATA" /proc/mounts || true)
  dirs=$(ls "$DATA/alloc" 2>/dev/null | wc -l)
  procs=$( (pgrep -f -- "$DATA/drivers" || true) | wc -l)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$heap" "$rss" "$threads" "$fds" "$cgroups" "$mounts" \
    "$dirs" "$procs" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "| when | heap after GC (MB) | RSS (MB) | threads | fds | task cgroups | mounts | alloc dirs | task processes | load avg |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# a short warm-up so "before" is measured with every code path loaded
seq 1 20 | sed "s/^/$TAG-warm-/" | xargs -P "$PAR" -I{} bash -c 'cycle {}'
measure "before ($(date -u +%H:%M) UTC)"
start=$(date +%s)
failures=$(seq 1 "$N" | sed "s/^/$TAG-/" | xargs -P "$PAR" -I{} bash -c 'cycle {}' | tee "$DATA/failures.txt" | wc -l)
elapsed=$(( $(date +%s) - start ))
measure "after $N cycles ($(date -u +%H:%M) UTC)"
echo
echo "cycles: $N in ${elapsed}s ($(awk -v n="$N" -v s="$elapsed" 'BEGIN {printf "%.1f", n/(s>0?s:1)}') cycles/s), failed cycles: $failures"
head -5 "$DATA/failures.txt"
