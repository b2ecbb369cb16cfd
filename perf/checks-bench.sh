#!/usr/bin/env bash
# N service checks at a 1 s interval against one agent: agent CPU (from /proc/<pid>/stat over a window), platform
# threads, probes per second and mean probe latency (from the agent's own metrics), compared with the same tasks
# without checks. Starts its own agent on 127.0.0.1 with a throw-away data dir; A allocations each run one raw_exec
# busybox httpd task whose service carries N/A checks (half http GET /index.html, half tcp) on the task's port.
# Usage: perf/checks-bench.sh [N=2000] [A=10] [WINDOW_S=60]
#        (needs target/berth-*.jar: ./mvnw -q -DskipTests -Dberth.prereqs.skip=true package)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
A=${2:-10}
WINDOW=${3:-60}
PER=$((N / A))
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
DATA=$(mktemp -d /tmp/berth-bench-checks.XXXXXX)
BASE="http://127.0.0.1:$PORT"
JAR=$(ls target/berth-*.jar | grep -v original | head -1)
"$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" --server.port="$PORT" --berth.data-dir="$DATA" \
  --berth.drivers.raw-exec.enabled=true --logging.level.root=WARN >"$DATA/agent.log" 2>&1 &
AGENT=$!
cleanup() {
  for i in $(seq 1 "$A"); do for p in 0 1; do curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/bench-checks-$p-$i" || true; done; done
  kill "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$DATA"
}
trap cleanup EXIT
for _ in $(seq 1 180); do
  kill -0 "$AGENT" 2>/dev/null || { echo "agent exited:"; tail -20 "$DATA/agent.log"; exit 1; }
  curl -sf "$BASE/actuator/health" >/dev/null && break; sleep 1
done

# alloc JSON with K checks (0: no service at all)
alloc() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
i, k, idx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])  # i = "<phase>-<n>"
checks = [{"Name": f"c{j}", "Type": "http" if j % 2 == 0 else "tcp", "Path": "/index.html",
           "Interval": 1_000_000_000, "Timeout": 2_000_000_000} for j in range(k)]
checks = [{kk: v for kk, v in c.items() if not (c["Type"] == "tcp" and kk == "Path")} for c in checks]
task = {"Name": "web", "Driver": "raw_exec", "KillTimeout": 1_000_000_000,
        "Config": {"command": "/bin/sh", "args": ["-c", "echo ok > \"$NOMAD_TASK_DIR/index.html\"; exec busybox httpd -f -p 127.0.0.1:$1 -h \"$NOMAD_TASK_DIR\"", "sh", "${NOMAD_PORT_http}"]},
        "Resources": {"CPU": 1, "MemoryMB": 10}}
if k:
    task["Services"] = [{"Name": f"bench-{i}", "PortLabel": "http", "Provider": "nomad", "Checks": checks}]
print(json.dumps({"ID": f"bench-checks-{i}", "Name": f"bench.g[{i}]", "JobID": "bench", "AllocModifyIndex": idx, "TaskGroup": "g",
  "Job": {"ID": "bench", "Name": "bench", "Type": "service", "TaskGroups": [{"Name": "g",
    "Networks": [{"DynamicPorts": [{"Label": "http"}]}], "Tasks": [task]}]}}))
PY
}
deploy() { # $1 = phase, $2 = checks per alloc
  for i in $(seq 1 "$A"); do
    alloc "$1-$i" "$2" 1 | curl -sS -X PUT "$BASE/v1/client/allocation/bench-checks-$1-$i" -H 'Content-Type: application/json' -o /dev/null -d @-
  done
  for i in $(seq 1 "$A"); do
    for _ in $(seq 1 120); do curl -s "$BASE/v1/allocation/bench-checks-$1-$i" | grep -q '"ClientStatus":"running"' && break; sleep 1; done
  done
}
undeploy() { # $1 = phase
  for i in $(seq 1 "$A"); do curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/bench-checks-$1-$i"; done
  for i in $(seq 1 "$A"); do
    for _ in $(seq 1 60); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/v1/allocation/bench-checks-$1-$i")" = 404 ] && break; sleep 1; done
  done
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$AGENT/stat"; }
threads() { awk '/^Threads:/ {print $2}' "/proc/$AGENT/status"; }
metric() { curl -s "$BASE/actuator/prometheus" | awk -v m="$1" 'index($0, m) == 1 {s += $NF} END {printf "%.6f\n", s + 0}'; }
HZ=$(getconf CLK_TCK)
measure() { # $1 = label
  sleep 10 # settle
  local t0 c0 r0 d0 n0 t1 c1 r1 d1 n1
  t0=$(date +%s.%N); c0=$(cpu_ticks); r0=$(metric berth_service_check_results_total); d0=$(metric berth_service_check_duration_seconds_sum)
  n0=$(metric berth_service_check_duration_seconds_count)
  local peak=0 th
  for _ in $(seq 1 "$WINDOW"); do th=$(threads); [ "$th" -gt "$peak" ] && peak=$th; sleep 1; done
  t1=$(date +%s.%N); c1=$(cpu_ticks); r1=$(metric berth_service_check_results_total); d1=$(metric berth_service_check_duration_seconds_sum)
  n1=$(metric berth_service_check_duration_seconds_count)
  python3 - "$1" "$t0" "$t1" "$c0" "$c1" "$HZ" "$r0" "$r1" "$d0" "$d1" "$n0" "$n1" "$peak" "$(threads)" "$(ps -o rss= -p "$AGENT")" <<'PY'
import sys
label, t0, t1, c0, c1, hz, r0, r1, d0, d1, n0, n1, peak, now, rss = sys.argv[1:]
wall = float(t1) - float(t0)
cpu = (int(c1) - int(c0)) / int(hz) / wall * 100
probes = (float(r1) - float(r0)) / wall
n = float(n1) - float(n0)
mean = (float(d1) - float(d0)) / n * 1000 if n else 0
print(f"{label}: agent CPU {cpu:.1f} % of one core, probes/s {probes:.0f}, mean probe latency {mean:.2f} ms, "
      f"threads {now} (peak {peak}), RSS {int(rss) // 1024} MiB, window {wall:.0f} s")
PY
}
echo "agent pid $AGENT on $BASE; N=$N checks over A=$A allocs; load: $(cat /proc/loadavg)"
deploy 0 0
measure "baseline ($A tasks, no checks)"
undeploy 0
deploy 1 "$PER"
curl -s "$BASE/actuator/prometheus" | grep '^berth_service_checks{' || true
measure "$N checks at 1 s ($A tasks)"
curl -s "$BASE/actuator/prometheus" | grep '^berth_service_checks{' || true
echo "platform threads named berth-check*: $("$(dirname "$JAVA")/jstack" "$AGENT" 2>/dev/null | grep -c '^"berth-check' || echo n/a)"
echo "load at end: $(cat /proc/loadavg)"
