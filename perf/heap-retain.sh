#!/usr/bin/env bash
# What the heap keeps after allocations are destroyed (issue 15, "memory that comes back"), with class histograms to
# diff. Starts the agent as shipped (bin/berth), waits 40 s, takes the heap after a full GC (jcmd GC.run + GC.heap_info,
# as perf/footprint.sh does) twice and a class histogram; PUTs N raw_exec `sleep 3600` allocations (PAR in parallel),
# waits for all running, destroys them, waits AFTER s (60), then the heap after a full GC three times (at once, again at
# once, after 5 s: the first full GC after a busy phase does not free everything) and a histogram. AFTER=120 lets the
# heap trimmer's quiet look (30-60 s after the last collection) and H2's follow-up compaction (45 s later) run first.
#
# perf/footprint.sh takes its after-destroy heap AFTER_SETTLE (60) + WINDOW (30) s after the destroys ended: AFTER=90 is
# its moment. Lines after the destroys carry "t+S s" (seconds since the last allocation stopped running).
#
# Usage: perf/heap-retain.sh OUTDIR N [DUMP]    (DUMP=1: also jcmd GC.heap_dump idle.hprof / after.hprof)
#        LAUNCHER=/other/tree/bin/berth perf/heap-retain.sh ...   (another build, e.g. the "before" one)
#        perf/histdiff.py OUTDIR/hist-idle.txt OUTDIR/hist-after.txt 40   (what grew, bytes and instances per class)
# Needs: ./mvnw -Paot package -DskipTests, curl, python3, root (raw_exec tasks in cgroups).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$1; N=$2; DUMP=${3:-0}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/retain-run.XXXXXX); DATA="$WORK/data"; mkdir -p "$DATA"
PREFIX="rt$$"; PAR=${PAR:-6}
source perf/agent-lib.sh
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"; export BASE
load() { cut -d' ' -f1 /proc/loadavg; }
export -f put
LAUNCHER=${LAUNCHER:-bin/berth}
echo "# $(date -u +%FT%TZ) $LAUNCHER N=$N AFTER=${AFTER:-60}" | tee -a "$OUT/summary"
"$LAUNCHER" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN \
  --logging.level.dev.berth.config.HeapTrimmer=DEBUG --logging.level.dev.berth.state.H2StoreCompaction=DEBUG \
  >"$OUT/agent.log" 2>&1 &
AGENT=$!
echo "$AGENT" > "$OUT/pid"
cleanup() { kill "$AGENT" 2>/dev/null || true; wait "$AGENT" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
until curl -sf -o /dev/null "$BASE/v1/agent/health"; do kill -0 "$AGENT" || exit 1; sleep 0.1; done
JCMD="$(dirname "$(readlink -f /proc/$AGENT/exe)")/jcmd"
heap() { "$JCMD" "$AGENT" GC.run >/dev/null; "$JCMD" "$AGENT" GC.heap_info | awk '/^ *(DefNew|Tenured|def new generation|tenured generation) / {for (i = 1; i <= NF; i++) if ($i == "used") {v = $(i + 1); sub(/K,?/, "", v); s += v}} END {printf "%.1f", s / 1024}'; }
# the class histogram's total (the live set after its own full GC) and H2's chunk records (org.h2.mvstore.SFChunk)
live() { awk '/^Total/ {printf "%.1f", $3 / 1048576}' "$1"; }
chunks() { awk '$4 == "org.h2.mvstore.SFChunk" {print $2; f = 1} END {if (!f) print 0}' "$1"; }
sleep 40
echo "idle heap after GC: $(heap) MB load $(load)" | tee -a "$OUT/summary"
echo "idle second GC: $(heap) MB" | tee -a "$OUT/summary"
"$JCMD" "$AGENT" GC.class_histogram > "$OUT/hist-idle.txt"
echo "idle live set $(live "$OUT/hist-idle.txt") MB, H2 chunk records $(chunks "$OUT/hist-idle.txt")" | tee -a "$OUT/summary"
[[ "$DUMP" == 1 ]] && "$JCMD" "$AGENT" GC.heap_dump -all "$OUT/idle.hprof" >/dev/null
s0=$(date +%s)
seq 1 "$N" | xargs -P "$PAR" -I{} bash -c "put $PREFIX-{}"
for _ in $(seq 1 900); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
echo "running $(running) in $(( $(date +%s) - s0 )) s load $(load)" | tee -a "$OUT/summary"
sleep 10
echo "busy heap after GC: $(heap) MB load $(load)" | tee -a "$OUT/summary"
curl -s "$BASE/v1/client/allocations" | grep -o "\"ID\":\"$PREFIX-[^\"]*\"" | cut -d'"' -f4 \
    | xargs -r -P "$PAR" -I{} curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/{}"
for _ in $(seq 1 900); do [[ "$(running)" -eq 0 ]] 2>/dev/null && break; sleep 1; done
d0=$(date +%s)
since() { echo "t+$(( $(date +%s) - d0 )) s"; }
echo "destroyed at $(date -u +%T); left in list: $(curl -s "$BASE/v1/client/allocations" | grep -o "\"ID\":\"$PREFIX-" | wc -l)" | tee -a "$OUT/summary"
sleep ${AFTER:-60}
echo "after destroy heap after GC: $(heap) MB load $(load) $(since)" | tee -a "$OUT/summary"
echo "second GC at once: $(heap) MB (perf/footprint.sh's figure: two GCs) $(since)" | tee -a "$OUT/summary"
sleep 5
echo "third GC after 5 s: $(heap) MB" | tee -a "$OUT/summary"
"$JCMD" "$AGENT" GC.class_histogram > "$OUT/hist-after.txt"
echo "after live set $(live "$OUT/hist-after.txt") MB, H2 chunk records $(chunks "$OUT/hist-after.txt")" | tee -a "$OUT/summary"
[[ "$DUMP" == 1 ]] && "$JCMD" "$AGENT" GC.heap_dump -all "$OUT/after.hprof" >/dev/null
echo ok
