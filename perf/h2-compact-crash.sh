#!/usr/bin/env bash
# kill -9 right after H2's quiet compaction (state.H2StoreCompaction), then restart: every allocation's state must be
# intact. Starts bin/berth (as shipped) on a throw-away data dir, PUTs N raw_exec `sleep 3600` allocations, destroys two
# in three, waits for the agent's log line "H2 store compacted ... A -> B chunks" (the heap trimmer's quiet look, or
# the follow-up pass 45 s later), kills the agent with SIGKILL within ~50 ms of it, starts it again on the same data
# dir and compares what it lists (ID, ClientStatus, each task's State) with what it listed before the kill, and checks
# that every listed allocation has exactly one task process. ROUNDS rounds on the same data dir, each destroying more.
# Task stats are sampled every 10 min here: the quiet look needs a period with no GC, which sampling running tasks
# every second does not leave (a young collection every few seconds with 20 tasks).
# Usage: perf/h2-compact-crash.sh [N=60] [ROUNDS=3]    Needs: ./mvnw -Paot package -DskipTests, curl, python3, root.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-60}; ROUNDS=${2:-3}
DATA=$(mktemp -d /tmp/h2-compact-crash.XXXXXX)
PREFIX="cc$$"; PAR=${PAR:-6}
source perf/agent-lib.sh
PORT=$(free_port); BASE="http://127.0.0.1:$PORT"; export BASE
export -f put
AGENT=
start_agent() {
  bin/berth --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$DATA" \
    --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN \
    --berth.telemetry.collection-interval=10m \
    --logging.level.dev.berth.state.H2StoreCompaction=DEBUG >>"$DATA/agent.log" 2>&1 &
  AGENT=$!
  until curl -sf -o /dev/null "$BASE/actuator/health/readiness"; do kill -0 "$AGENT" || exit 1; sleep 0.1; done
}
cleanup() {
  [ -n "$AGENT" ] && kill -9 "$AGENT" 2>/dev/null || true
  pgrep -f -- "$DATA/drivers" | xargs -r kill -9 2>/dev/null || true   # only the task processes of this data dir
  grep -o " $DATA/[^ ]*" /proc/mounts | sort -r | xargs -r umount -l 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$DATA" 2>/dev/null || true
}
trap cleanup EXIT
# one line per allocation: ID ClientStatus task=State..., sorted
listing() {
  curl -s "$BASE/v1/allocations" | python3 -c '
import json, sys
for a in sorted(json.load(sys.stdin), key=lambda a: a["ID"]):
    tasks = " ".join(t + "=" + str(s.get("State")) for t, s in sorted((a.get("TaskStates") or {}).items()))
    print(a["ID"], a["ClientStatus"], tasks)'
}
processes_ok() { # every listed allocation has exactly one task process, no process without an allocation
  local ids procs
  ids=$(curl -s "$BASE/v1/allocations" | python3 -c 'import json,sys; print("\n".join(sorted(a["ID"] for a in json.load(sys.stdin))))')
  procs=$(pgrep -af -- "$DATA/drivers" | grep -o "$DATA/drivers/[a-z_]*/$PREFIX-[0-9]*" | grep -o "$PREFIX-[0-9]*$" | sort)
  [ "$ids" = "$procs" ]
}
start_agent
seq 1 "$N" | sed "s/^/$PREFIX-/" | xargs -P "$PAR" -I{} bash -c 'put {}'
for _ in $(seq 1 600); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
echo "$(running) running, load $(cut -d' ' -f1 /proc/loadavg)"
gone=0
for round in $(seq 1 "$ROUNDS"); do
  # destroy two in three of those left
  curl -s "$BASE/v1/allocations" | python3 -c 'import json,sys; print("\n".join(sorted(a["ID"] for a in json.load(sys.stdin))))' \
    | awk 'NR % 3 != 1' | xargs -r -P "$PAR" -I{} curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/{}"
  left=$(curl -s "$BASE/v1/allocations" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  for _ in $(seq 1 300); do [[ "$(running)" -eq "$left" ]] 2>/dev/null && break; sleep 1; done
  seen=$(grep -c "H2 store compacted" "$DATA/agent.log" || true)
  for _ in $(seq 1 6000); do   # up to 10 min: the quiet look comes 30-60 s after the last collection
    [ "$(grep -c "H2 store compacted" "$DATA/agent.log" || true)" -gt "$seen" ] && break; sleep 0.05
  done
  before=$(listing)
  kill -9 "$AGENT"; wait "$AGENT" 2>/dev/null || true
  line=$(grep "H2 store compacted" "$DATA/agent.log" | tail -1 | sed 's/.*DEBUG[^:]*: //')
  start_agent
  after=$(listing)
  for _ in $(seq 1 90); do processes_ok && break; sleep 1; done
  if [ "$before" = "$after" ] && processes_ok; then verdict=ok; else verdict=FAIL; gone=1; fi
  echo "round $round: $left allocations, killed after \"$line\"; restarted: $(echo "$after" | grep -c . || true) listed," \
       "states $( [ "$before" = "$after" ] && echo same || echo DIFFERENT), one process each: $(processes_ok && echo yes || echo no)" \
       "-> $verdict, load $(cut -d' ' -f1 /proc/loadavg)"
  [ "$verdict" = ok ] || diff <(echo "$before") <(echo "$after") | head -10
done
exit $gone
