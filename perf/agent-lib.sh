# Shared by the bench scripts that drive an agent (source it; BASE, PREFIX and PAR are the caller's):
#   free_port                 an unused loopback port
#   wait_healthy PORT PID     until /v1/agent/health answers 200, polled every 10 ms from one process; fails if PID exits
#   put ID                    PUTs a raw_exec `sleep 3600` allocation (export -f put for xargs)
#   running                   how many allocations run (from /actuator/prometheus)
#   destroy_all               DELETEs every allocation whose ID starts with PREFIX, PAR at a time
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"; }

wait_healthy() { python3 "$BENCH_DIR/wait-healthy.py" "$1" "$2"; }

put() {
  curl -s -o /dev/null -X PUT "$BASE/v1/client/allocation/$1" -H 'Content-Type: application/json' -d \
  "{\"ID\":\"$1\",\"Name\":\"fp.g[0]\",\"JobID\":\"fp\",\"AllocModifyIndex\":1,\"TaskGroup\":\"g\",
    \"Job\":{\"ID\":\"fp\",\"Name\":\"fp\",\"Type\":\"service\",\"TaskGroups\":[{\"Name\":\"g\",
    \"Tasks\":[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"sleep\",\"args\":[\"3600\"]},
    \"Resources\":{\"CPU\":1,\"MemoryMB\":10}}]}]}}"
}

running() { curl -s "$BASE/actuator/prometheus" | awk '/^berth_client_allocations\{.*status="running"/ {printf "%d", $2}'; }

destroy_all() {
  curl -s "$BASE/v1/client/allocations" | grep -o "\"ID\":\"$PREFIX-[^\"]*\"" | cut -d'"' -f4 \
    | xargs -r -P "$PAR" -I{} curl -s -o /dev/null -X DELETE "$BASE/v1/client/allocation/{}"
}
