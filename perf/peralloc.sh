#!/usr/bin/env bash
# What each running raw_exec allocation costs the agent: starts the agent as shipped (HOME/bin/berth, with NMT on),
# takes a class histogram, heap info, NMT summary, RSS and a JSON thread dump after a full GC, idle and with N running
# allocations (`sleep 3600`, as perf/footprint.sh), into OUTDIR; then destroys them and stops the agent.
# Compare two runs per class with perf/histdiff.py OUTDIR/hist-idle.txt OUTDIR/hist-nN.txt --per N.
# usage: perf/peralloc.sh HOME OUTDIR [N]   (HOME has bin/berth and target/berth: a checkout after ./mvnw -Paot package,
#        or a copy of those two to compare builds side by side)
set -euo pipefail
HOME_=$1; OUT=$2; N=${3:-1000}; PAR=${PAR:-4}
mkdir -p "$OUT"; WORK=$(mktemp -d /tmp/berth-peralloc.XXXX); DATA=$WORK/data; mkdir -p $DATA
PREFIX="pa$$"
source "$(dirname "$0")/agent-lib.sh"
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
load() { cut -d' ' -f1-3 /proc/loadavg; }
rss_mb() { awk '/^VmRSS:/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }
export -f put; export BASE
JAVA_OPTS="-XX:NativeMemoryTracking=summary ${JAVA_OPTS:-}" "$HOME_/bin/berth" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --berth.acl.enabled=false --logging.level.root=WARN >"$OUT/agent.log" 2>&1 &
AGENT=$!
cleanup() { destroy_all || true; for _ in $(seq 1 120); do [[ "$(running)" -eq 0 ]] 2>/dev/null && break; sleep 1; done; kill $AGENT; wait $AGENT || true; rm -rf $WORK; }
trap cleanup EXIT
until curl -sf -o /dev/null "$BASE/v1/agent/health"; do sleep 0.1; done
JCMD="$(dirname "$(readlink -f /proc/$AGENT/exe)")/jcmd"
snap() { # $1 = label
  "$JCMD" $AGENT GC.run >/dev/null; sleep 2
  "$JCMD" $AGENT GC.class_histogram > "$OUT/hist-$1.txt"
  "$JCMD" $AGENT GC.heap_info > "$OUT/heap-$1.txt"
  "$JCMD" $AGENT VM.native_memory summary > "$OUT/nmt-$1.txt"
  "$JCMD" $AGENT Thread.dump_to_file -format=json "$OUT/threads-$1.json" >/dev/null 2>&1 || true
  echo "$1: rss=$(rss_mb $AGENT) MB threads=$(awk '/^Threads:/{print $2}' /proc/$AGENT/status) histtotal=$(tail -1 "$OUT/hist-$1.txt") load=$(load)" | tee -a "$OUT/summary.txt"
}
sleep 20; snap idle
seq 1 "$N" | xargs -P "$PAR" -I{} bash -c "put $PREFIX-{}"
for _ in $(seq 1 900); do [[ "$(running)" -ge "$N" ]] 2>/dev/null && break; sleep 1; done
echo "running: $(running)" | tee -a "$OUT/summary.txt"
sleep 20; snap n$N
