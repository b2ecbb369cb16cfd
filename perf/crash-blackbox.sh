#!/usr/bin/env bash
# Black-box crash run (issue 14): an agent is killed with kill -9 at a random moment while allocations start, with a CPU
# hog beside it, then started again on the same data dir; within 45 s every allocation it lists must be `running` with
# exactly one task process, and no task process may belong to an allocation it does not list. Everything goes through
# curl and /proc, nothing through the agent's code.
# Usage: perf/crash-blackbox.sh [ROUNDS=20] [PER_ROUND=10]   (runs target/berth-*.jar, else target/classes)
# Starts its own agent on a free loopback port with a throw-away data dir (KEEP=1 keeps it); prints a line per round.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-20}
PER_ROUND=${2:-10}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-crash.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar 2>/dev/null | grep -v original | head -1 || true)
if [ -n "$JAR" ]; then
  LAUNCH=(-jar "$JAR")
else
  [ -f target/classpath.txt ] || ./mvnw -q -B -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
  LAUNCH=(-cp "target/classes:$(cat target/classpath.txt)" dev.berth.Application)
fi
AGENT=
start_agent() {
  "$JAVA" --enable-native-access=ALL-UNNAMED "${LAUNCH[@]}" --server.port="$PORT" --berth.data-dir="$DATA" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN >>"$DATA/agent.log" 2>&1 &
  AGENT=$!
  for _ in $(seq 1 3000); do   # start-up takes seconds on a quiet machine, minutes under a heavy load
    kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
    curl -sf "$BASE/actuator/health/readiness" >/dev/null && return
    sleep 0.1
  done
  echo "agent not ready after 300 s"; exit 1
}
yes >/dev/null &
HOG=$!
cleanup() {
  kill "$HOG" 2>/dev/null || true
  [ -n "$AGENT" ] && kill -9 "$AGENT" 2>/dev/null || true
  pgrep -f -- "$DATA/drivers" | xargs -r kill -9 2>/dev/null || true   # only the task processes of this data dir
  # the tasks' secrets/ and private/ tmpfs mounts: the agent unmounts them when it destroys an allocation, not on kill -9
  grep -o " $DATA/[^ ]*" /proc/mounts | sort -r | xargs -r umount -l 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$DATA" 2>/dev/null || true
}
trap cleanup EXIT

submit() { # $1 = alloc id
  curl -s -o /dev/null -m 30 -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$1\",\"Name\":\"crash.g[0]\",\"JobID\":\"crash\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"crash\",\"Name\":\"crash\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"KillTimeout\":2000000000,\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}" || true
}

# prints "ok <seconds>" once every listed alloc runs with exactly one process and no process is unaccounted for, or the
# last mismatch after 45 s
check() {
  local t0 listed procs verdict
  t0=$(date +%s.%N)
  while :; do
    listed=$(curl -s "$BASE/v1/allocations" | python3 -c 'import json,sys; print(" ".join(a["ID"]+"="+a["ClientStatus"] for a in json.load(sys.stdin)))')
    # every shim names its exit file <data>/drivers/raw_exec/<alloc id>...; one shim per task process
    procs=$(pgrep -af -- "$DATA/drivers" | grep -o "$DATA/drivers/[a-z_]*/[0-9a-f-]\{36\}" | grep -o "[0-9a-f-]\{36\}$" | sort | uniq -c | awk '{print $2"="$1}' | tr '\n' ' ')
    verdict=$(python3 - "$listed" "$procs" <<'PY'
import sys
listed = dict(x.split("=") for x in sys.argv[1].split())
procs = {k: int(v) for k, v in (x.split("=") for x in sys.argv[2].split())}
bad = [f"{a}:{s}" for a, s in listed.items() if s != "running"]
bad += [f"{a}:{procs.get(a, 0)} processes" for a in listed if procs.get(a, 0) != 1]
bad += [f"orphan {a}" for a in procs if a not in listed]
print("ok" if not bad else " ".join(bad[:5]))
PY
)
    if [ "$verdict" = ok ]; then printf 'ok %.1f' "$(echo "$(date +%s.%N) - $t0" | bc)"; return; fi
    if [ "$(echo "$(date +%s.%N) - $t0 > 45" | bc)" = 1 ]; then echo "FAIL $verdict"; return; fi
    sleep 0.5
  done
}

start_agent
echo "data $DATA, $ROUNDS rounds of $PER_ROUND allocations, CPU hog pid $HOG"
fails=0
for r in $(seq 1 "$ROUNDS"); do
  submits=()
  for _ in $(seq 1 "$PER_ROUND"); do submit "$(cat /proc/sys/kernel/random/uuid)" & submits+=($!); done
  sleep "$(python3 -c 'import random; print(round(random.uniform(0.05, 2.0), 2))')"
  kill -9 "$AGENT"; wait "$AGENT" 2>/dev/null || true
  wait "${submits[@]}" 2>/dev/null || true   # the submissions the kill cut short (not the hog)
  start_agent
  result=$(check)
  total=$(curl -s "$BASE/v1/allocations" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  echo "round $r: $total allocations listed, $result (load $(cut -d' ' -f1-3 /proc/loadavg))"
  case $result in ok*) ;; *) fails=$((fails + 1)) ;; esac
done
echo "rounds failed: $fails of $ROUNDS"
[ "$fails" -eq 0 ]
