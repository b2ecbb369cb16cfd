#!/usr/bin/env bash
# Idle CPU per thread of agents started as shipped, alternated (docs/benchmarks/footprint.md):
# for each launcher in turn, ROUNDS times: start on a new data dir until healthy, stop, start again on it (a restart),
# wait SETTLE s, then read every thread's on-CPU time (/proc/<pid>/task/*/schedstat, ns) twice, WIN s apart; prints the
# share of one core per thread name (digits folded), the total, the idle RSS and the load average; stops the agent.
#
# Usage: perf/idle-cpu.sh LAUNCHER... (e.g. perf/idle-cpu.sh /tmp/base/bin/berth bin/berth)
#        ROUNDS=3 SETTLE=30 WIN=60 TOP=10; extra agent arguments in AGENT_ARGS (e.g. AGENT_ARGS=--berth.x=y)
set -uo pipefail
source "$(dirname "$0")/agent-lib.sh"
ROUNDS=${ROUNDS:-3} SETTLE=${SETTLE:-30} WIN=${WIN:-60} TOP=${TOP:-10}
WORK=$(mktemp -d /tmp/berth-idle-cpu.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

start() { # LAUNCHER DATA_DIR
  PORT=$(free_port)
  # shellcheck disable=SC2086
  "$1" --server.address=127.0.0.1 --server.port="$PORT" --berth.data-dir="$2" --berth.drivers.raw-exec.enabled=true \
    --logging.level.root=WARN ${AGENT_ARGS:-} >>"$WORK/log" 2>&1 &
  PID=$!
  wait_healthy "$PORT" "$PID"
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null; PID=; }
threads() { for t in /proc/"$PID"/task/*; do printf '%s %s\n' "$(tr ' ' _ <"$t/comm" | sed 's/[0-9]\+/N/g')" "$(cut -d' ' -f1 "$t/schedstat")"; done 2>/dev/null; }

for round in $(seq "$ROUNDS"); do
  for launcher in "$@"; do
    data="$WORK/data-$round"; rm -rf "$data"; mkdir -p "$data"
    start "$launcher" "$data"; stop; sleep 1
    start "$launcher" "$data"; sleep "$SETTLE"
    threads >"$WORK/a"; t0=$(date +%s%N); sleep "$WIN"; threads >"$WORK/b"; t1=$(date +%s%N)
    rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' /proc/"$PID"/status)
    echo "== $launcher, round $round: RSS ${rss} MB, load $(cut -d' ' -f1-3 /proc/loadavg)"
    awk -v ns=$((t1 - t0)) -v top="$TOP" '
      NR == FNR { before[$1] += $2; next }
      { after[$1] += $2 }
      END {
        for (n in after) { d = after[n] - before[n]; total += d; if (d > 0) printf "%7.3f %% %s\n", 100 * d / ns, n | "sort -rn | head -" top }
        close("sort -rn | head -" top)
        printf "%7.3f %% TOTAL\n", 100 * total / ns
      }' "$WORK/a" "$WORK/b"
    stop
  done
done
