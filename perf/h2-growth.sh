#!/usr/bin/env bash
# How the H2 state file and H2's in-heap chunk bookkeeping grow under allocation churn (docs/benchmarks/state-store.md):
# six rounds of 150 raw_exec allocations created, then destroyed; after each round the size of
# <data-dir>/state/berth.mv.db, the number of H2 chunk objects in the heap (org.h2.mvstore.SFChunk, class histogram)
# and the tenured generation's line; finally the file's size once the agent closed the database.
# Usage: perf/h2-growth.sh   (needs a build: ./mvnw -Paot package -DskipTests; root, for raw_exec cgroups)
cd "$(dirname "$0")/.."
W=$(mktemp -d /tmp/berth-h2g.XXXXXX); PORT=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"); BASE=http://127.0.0.1:$PORT
bin/berth --server.address=127.0.0.1 --server.port=$PORT --berth.acl.enabled=false --berth.data-dir=$W/data --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN > $W/log 2>&1 & A=$!
until curl -sf -o /dev/null $BASE/v1/agent/health; do sleep 0.1; done
J=$(dirname $(readlink -f /proc/$A/exe))
put() { curl -s -o /dev/null -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d "{\"ID\":\"$1\",\"Name\":\"h.g[0]\",\"JobID\":\"h\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",\"Job\":{\"ID\":\"h\",\"Name\":\"h\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",\"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},\"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}"; }
export -f put; export BASE
for r in 1 2 3 4 5 6; do
  seq 1 150 | xargs -P 8 -I{} bash -c "put r$r-{}"
  sleep 5
  curl -s $BASE/v1/client/allocations | grep -o '"ID":"r[0-9]*-[0-9]*"' | cut -d'"' -f4 | xargs -r -P 8 -I{} curl -s -o /dev/null -X DELETE $BASE/v1/client/allocation/{}
  sleep 5
  echo "round $r: mv.db $(du -k $W/data/state/berth.mv.db | cut -f1) KB, SFChunk $($J/jcmd $A GC.class_histogram | awk '/org.h2.mvstore.SFChunk$/ {print $2}'), heap-used $($J/jcmd $A GC.heap_info | awk '/Tenured/ {print $6}')"
done
kill $A; wait $A
echo "after close: mv.db $(du -k $W/data/state/berth.mv.db | cut -f1) KB"
for m in $(grep " $W" /proc/mounts | awk '{print $2}'); do umount $m; done; rm -rf $W
