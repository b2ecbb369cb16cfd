#!/usr/bin/env bash
# One placement of the agent as shipped (bin/berth with its AOT cache) on the cgroup v2 VM, driven as a user would:
# over HTTP with curl and jq. Run inside the VM (see stage-inside.sh), as root, from the repository root:
#
#   .ci/v2/placement.sh host|service|container|helm PORT
#
#   host       the agent in the host's root cgroup
#   service    the agent in a child cgroup, system.slice/berth.service's shape (controllers enabled above it)
#   container  the agent in its own cgroup namespace with its own cgroup2 mount, at the namespace's root: what
#              Docker and containerd give a container on a v2 host (unshare --cgroup --mount, as runc does)
#   helm       the agent in its own cgroup namespace with the host's /sys/fs/cgroup mounted in (the Helm chart's
#              shape): /proc/self/cgroup says 0::/ while the tree it sees is the host's
#
# Checks: exec and raw_exec healthy; exec's limits (memory, memory_max, cpu, cpu_hard_limit, pids) in the task's cgroup
# and every process of the task in it; a task with a reserved core alone on it (cpuset) and the other tasks off it; raw_exec in a cgroup of its own with cgroup stats and pressure; an OOM kill reported as
# Nomad does; a kill -9 of the agent and a restart in the same placement reattaching the running tasks; no cgroup left
# after the job is stopped, nor the node's parent after the agent stops. Prints "PASS <placement>" or FAIL lines.
set -uo pipefail
placement="$1"
port="$2"
cg=/sys/fs/cgroup
work="/tmp/berth-$placement"
data="$work/data"
log="${OUT:-/tmp}/agent-$placement.log"
api="http://127.0.0.1:$port"
mkdir -p "$data"
failures=0

say() { echo "[$placement $(date +%T)] $*"; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then say "ok: $1 = $2"; else fail "$1: expected '$3', got '$2'"; fi
}
get() { curl -sf "$api$1"; }
wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then fail "timed out after ${limit}s waiting for $what"; return 1; fi
    sleep 2
  done
}

# The namespace joiner for the container placements: the restarted agent runs in the same container.
holder_pid=""
agent_cmd=(bin/berth --berth.data-dir="$data" --server.port="$port" --berth.name="v2-$placement"
           --berth.drivers.exec.enabled=true --berth.drivers.raw-exec.enabled=true)
docker_image="${BERTH_V2_DOCKER_IMAGE:-}"
[ "$placement" = host ] || docker_image=""   # the engine runs beside the agent on the host
[ -n "$docker_image" ] && agent_cmd+=(--berth.drivers.docker.enabled=true)

start_agent() {
  case "$placement" in
    host)
      "${agent_cmd[@]}" >>"$log" 2>&1 &
      agent_pid=$! ;;
    service)
      mkdir -p "$cg/system.slice/berth.service"
      echo "+cpuset +cpu +memory +pids" > "$cg/cgroup.subtree_control"
      echo "+cpuset +cpu +memory +pids" > "$cg/system.slice/cgroup.subtree_control"
      sh -c 'echo $$ > '"$cg"'/system.slice/berth.service/cgroup.procs && exec "$@"' agent "${agent_cmd[@]}" >>"$log" 2>&1 &
      agent_pid=$! ;;
    container|helm)
      if [ -z "$holder_pid" ]; then
        # The container: a cgroup of its own (as the engine makes one), a cgroup namespace rooted there and a mount
        # namespace; a sleeping holder keeps them for the restart, as the container's other processes would.
        local ctr="$cg/$placement-ctr"
        [ "$placement" = helm ] && ctr="$cg/kubepods/pod-helm/ctr"
        mkdir -p "$ctr"
        echo "+cpuset +cpu +memory +pids" > "$cg/cgroup.subtree_control"
        if [ "$placement" = helm ]; then
          echo "+cpuset +cpu +memory +pids" > "$cg/kubepods/cgroup.subtree_control"
          echo "+cpuset +cpu +memory +pids" > "$cg/kubepods/pod-helm/cgroup.subtree_control"
        fi
        local remount=""
        # container: the engine mounts a fresh cgroup2 for the namespace; helm: the host's tree stays mounted
        [ "$placement" = container ] && remount="umount -l $cg && mount -t cgroup2 cgroup2 $cg && "
        sh -c 'echo $$ > '"$ctr"'/cgroup.procs && exec unshare --cgroup --mount --propagation private sh -c "'"$remount"'exec sleep 100000"' \
          >>"$log" 2>&1 &
        holder_pid=$!
        wait_for 30 "the container's namespaces" sh -c "[ \"\$(readlink /proc/$holder_pid/ns/cgroup)\" != \"\$(readlink /proc/self/ns/cgroup)\" ] && [ \"\$(readlink /proc/$holder_pid/exe)\" != \"\$(readlink -f /usr/bin/unshare)\" ]"
        say "container cgroup $(cat /proc/$holder_pid/cgroup); its cgroup2 mount as it sees it: $(grep cgroup2 /proc/$holder_pid/mountinfo | cut -d' ' -f4,5)"
      fi
      # Into the container as its supervisor would start the agent (or `docker exec`): in the cgroup its other
      # processes are in now (the first agent moves them into a leaf), then its namespaces.
      local joined="$cg$(sed -n 's/^0:://p' /proc/$holder_pid/cgroup)"
      sh -c 'echo $$ > "$1/cgroup.procs" && t=$2 && shift 2 && exec nsenter -t "$t" -C -m --wd="$PWD" "$@"' join "$joined" "$holder_pid" "${agent_cmd[@]}" \
        >>"$log" 2>&1 &
      agent_pid=$! ;;
  esac
  local started=$(date +%s)
  local deadline=$(( started + 900 ))
  until get /v1/agent/health >/dev/null; do
    if ! kill -0 "$agent_pid" 2>/dev/null; then fail "the agent exited before it was healthy"; return 1; fi
    if [ "$(date +%s)" -ge "$deadline" ]; then fail "the agent was not healthy within 900 s"; return 1; fi
    sleep 2
  done
  say "agent pid $agent_pid healthy after $(( $(date +%s) - started )) s, in $(cat /proc/$agent_pid/cgroup)"
}

alloc_of() { get "/v1/job/$1/allocations" | jq -r '[.[] | select(.ClientStatus != "complete" and .ClientStatus != "failed")][0].ID // empty'; }
alloc_status() { get "/v1/allocation/$1" | jq -r .ClientStatus; }
task_dir() { find "$cg" -maxdepth 6 -type d -name "$1.$2" 2>/dev/null | head -1; }
register() { curl -sf -X PUT "$api/v1/jobs" -d "$1" >/dev/null || fail "register: $(curl -s -X PUT "$api/v1/jobs" -d "$1")"; }

start_agent || { say "agent log:"; tail -50 "$log"; exit 1; }
node=$(get /v1/node/self)
check "exec health" "$(jq -r .Drivers.exec.Healthy <<<"$node")" true
check "raw_exec health" "$(jq -r .Drivers.raw_exec.Healthy <<<"$node")" true
say "exec: $(jq -c '.Drivers.exec | {HealthDescription, Attributes}' <<<"$node")"
say "cgroup attributes: $(jq -c '.Attributes | with_entries(select(.key | test("cgroup")))' <<<"$node")"

# --- exec limits and raw_exec's cgroup --------------------------------------------------------------------------
register '{"Job":{"ID":"limits","Type":"service","TaskGroups":[{"Name":"g","Count":1,"Tasks":[
  {"Name":"web","Driver":"exec","Config":{"command":"/bin/sh","args":["-c","sleep 100000 & wait"],"pids_limit":50,"cpu_hard_limit":true},
   "Resources":{"CPU":500,"MemoryMB":64,"MemoryMaxMB":128}},
  {"Name":"raw","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","while :; do sleep 1; done"]},
   "Resources":{"CPU":100,"MemoryMB":32}}]}]}}'
wait_for 300 "the limits job to run" sh -c "[ -n \"\$(curl -sf $api/v1/job/limits/allocations | jq -r '.[] | select(.ClientStatus == \"running\") | .ID')\" ]"
alloc=$(alloc_of limits)
web=$(task_dir "$alloc" web)
raw=$(task_dir "$alloc" raw)
say "alloc $alloc: exec cgroup $web, raw_exec cgroup $raw"
if [ -z "$web" ] || [ -z "$raw" ]; then
  fail "task cgroups not found"
else
  check "memory.max (memory_max 128)" "$(cat "$web/memory.max")" 134217728
  check "memory.low (memory 64)" "$(cat "$web/memory.low")" 67108864
  check "memory.high (64 + 0.9 x (128 - 64) MiB, on a page)" "$(cat "$web/memory.high")" 127504384
  check "memory.swap.max" "$(cat "$web/memory.swap.max")" 0
  check "cpu.weight (cpu 500)" "$(cat "$web/cpu.weight")" 19
  check "pids.max" "$(cat "$web/pids.max")" 50
  say "cpu.max (cpu_hard_limit, 500 MHz as a share of one core's time): $(cat "$web/cpu.max")"
  check "cpu.max has a quota" "$(cut -d' ' -f1 "$web/cpu.max" | grep -c '^[0-9]')" 1
  # the task's shell and its sleep; raw_exec's exit-recording shim stays outside the task's memory limit
  wait_for 30 "the exec task's two processes" sh -c "[ \$(wc -l < $web/cgroup.procs) -eq 2 ]"
  for pid in $(cat "$web/cgroup.procs"); do
    say "  exec task process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline | cut -c1-60)"
  done
  check "raw_exec memory.max (no limit)" "$(cat "$raw/memory.max")" max
  web_pids_before=$(sort "$web/cgroup.procs" | tr '\n' ' ')
  wait_for 60 "raw_exec's cgroup stats" sh -c "curl -sf $api/v1/client/allocation/$alloc/stats | jq -e '.Tasks.raw.ResourceUsage.MemoryStats.Usage > 0 and .Tasks.raw.Pids == null and .Tasks.raw.Pressure != null'"
  stats=$(get "/v1/client/allocation/$alloc/stats")
  say "raw_exec stats: $(jq -c '.Tasks.raw | {Memory: .ResourceUsage.MemoryStats | {Usage, Cache, Measured}, Pressure}' <<<"$stats")"
  check "raw_exec usage = its cgroup's memory.current (within 1 MiB)" \
    "$(jq -r --argjson cur "$(cat "$raw/memory.current")" '(.Tasks.raw.ResourceUsage.MemoryStats.Usage - $cur) | fabs < 1048576' <<<"$stats")" true
fi

# --- reserved cores: a task alone on its core, the shared tasks off it, back on it once it is free -------------------
if [ -n "${web:-}" ]; then
  register '{"Job":{"ID":"pinned","Type":"service","TaskGroups":[{"Name":"g","Count":1,"Tasks":[
    {"Name":"pin","Driver":"exec","Config":{"command":"/bin/sh","args":["-c","sleep 100000 & wait"]},
     "Resources":{"Cores":1,"MemoryMB":32}}]}]}}'
  if wait_for 300 "the pinned job to run" sh -c "curl -sf $api/v1/job/pinned/allocations | jq -e '[.[] | select(.ClientStatus == \"running\")] | length == 1'"; then
    pinned=$(alloc_of pinned)
    core=$(get "/v1/allocation/$pinned" | jq -r '.AllocatedResources.Tasks.pin.Cpu.ReservedCores | join(",")')
    pin=$(task_dir "$pinned" pin)
    say "pinned alloc $pinned: reserved core(s) $core, cgroup $pin, shared tasks on $(cat "$web/cpuset.cpus.effective")"
    check "the pinned task's cores (cpuset.cpus.effective)" "$(cat "$pin/cpuset.cpus.effective")" "$core"
    for p in $(cat "$pin/cgroup.procs"); do
      check "pinned process $p's Cpus_allowed_list" "$(awk '/^Cpus_allowed_list/ {print $2}' /proc/$p/status)" "$core"
    done
    check "the shared exec task is off the reserved core" \
      "$(cpus=$(cat "$web/cpuset.cpus.effective"); [ "$cpus" != "$core" ] && ! grep -qw "$core" <<<"${cpus//[-,]/ }" && echo off || echo "on ($cpus)")" off
    check "the shared raw_exec task is off the reserved core" \
      "$(cpus=$(cat "$raw/cpuset.cpus.effective"); [ "$cpus" != "$core" ] && ! grep -qw "$core" <<<"${cpus//[-,]/ }" && echo off || echo "on ($cpus)")" off
    curl -sf -X DELETE "$api/v1/job/pinned?purge=true" >/dev/null
    wait_for 120 "the shared task back on every core" sh -c "[ \"\$(cat $web/cpuset.cpus.effective)\" = \"\$(cat $(dirname "$web")/cpuset.cpus.effective)\" ]"
  else
    say "pinned job: $(get /v1/job/pinned/allocations | jq -c '[.[] | {ClientStatus, ClientDescription}]') evals: $(get /v1/job/pinned/evaluations | jq -c '[.[] | {Status, StatusDescription, FailedTGAllocs}]')"
  fi
fi

# --- OOM ------------------------------------------------------------------------------------------------------------
register '{"Job":{"ID":"oom","Type":"batch","TaskGroups":[{"Name":"g","Count":1,
  "RestartPolicy":{"Attempts":0,"Interval":60000000000,"Delay":1000000000,"Mode":"fail"},"Tasks":[
  {"Name":"hog","Driver":"exec","Config":{"command":"/bin/sh","args":["-c","x=$(head -c 200000000 /dev/zero | tr \"\\\\0\" a); echo never"]},
   "Resources":{"CPU":100,"MemoryMB":64}}]}]}}'
wait_for 600 "the OOM task to end" sh -c "curl -sf $api/v1/job/oom/allocations | jq -e '.[0].TaskStates.hog.State == \"dead\"'"
terminated=$(get /v1/job/oom/allocations | jq -c '.[0].TaskStates.hog.Events[] | select(.Type == "Terminated")')
say "OOM task's Terminated event: $(jq -c '{ExitCode, Details: .Details | {oom_killed, exit_message}}' <<<"$terminated")"
check "OOM reported" "$(jq -r '.Details.oom_killed' <<<"$terminated")" true
check "exit message" "$(jq -r '.Details.exit_message' <<<"$terminated")" "OOM Killed"

# --- docker on v2: stats from the container's cgroup, OOM ------------------------------------------------------------
if [ -n "$docker_image" ]; then
  check "docker health" "$(get /v1/node/self | jq -r .Drivers.docker.Healthy)" true
  register '{"Job":{"ID":"dock","Type":"service","TaskGroups":[{"Name":"g","Count":1,"Tasks":[
    {"Name":"box","Driver":"docker","Config":{"image":"'"$docker_image"'","command":"sh","args":["-c","sleep 100000"],"network_mode":"none"},
     "Resources":{"CPU":100,"MemoryMB":48}}]}]}}'
  wait_for 600 "the docker task to run" sh -c "curl -sf $api/v1/job/dock/allocations | jq -e '.[0].ClientStatus == \"running\"'"
  dock=$(alloc_of dock)
  cid=$(docker ps -q --filter "label=dev.berth.alloc_id=$dock" | head -1)
  cdir="$cg$(sed -n 's/^0:://p' /proc/$(docker inspect -f '{{.State.Pid}}' "$cid")/cgroup)"
  say "docker container $cid in $cdir (memory.max $(cat "$cdir/memory.max"))"
  wait_for 60 "the container's cgroup stats" sh -c "curl -sf $api/v1/client/allocation/$dock/stats | jq -e '.Tasks.box.ResourceUsage.MemoryStats.Usage > 0 and .Tasks.box.Pids == null'"
  dstats=$(get "/v1/client/allocation/$dock/stats")
  say "docker stats: $(jq -c '.Tasks.box.ResourceUsage.MemoryStats | {Usage, RSS, Measured}' <<<"$dstats")"
  check "docker memory Measured (the v2 cgroup list)" "$(jq -c .Tasks.box.ResourceUsage.MemoryStats.Measured <<<"$dstats")" '["RSS","Cache","Swap","Usage","Max Usage"]'
  check "docker usage = the container cgroup's memory.current (within 1 MiB)" \
    "$(jq -r --argjson cur "$(cat "$cdir/memory.current")" '(.Tasks.box.ResourceUsage.MemoryStats.Usage - $cur) | fabs < 1048576' <<<"$dstats")" true
  register '{"Job":{"ID":"dockoom","Type":"batch","TaskGroups":[{"Name":"g","Count":1,
    "RestartPolicy":{"Attempts":0,"Interval":60000000000,"Delay":1000000000,"Mode":"fail"},"Tasks":[
    {"Name":"hog","Driver":"docker","Config":{"image":"'"$docker_image"'","command":"sh","args":["-c","x=$(head -c 200000000 /dev/zero | tr \"\\\\0\" a); echo never"],"network_mode":"none"},
     "Resources":{"CPU":100,"MemoryMB":48}}]}]}}'
  wait_for 600 "the docker OOM task to end" sh -c "curl -sf $api/v1/job/dockoom/allocations | jq -e '.[0].TaskStates.hog.State == \"dead\"'"
  dterm=$(get /v1/job/dockoom/allocations | jq -c '.[0].TaskStates.hog.Events[] | select(.Type == "Terminated")')
  say "docker OOM task's Terminated event: $(jq -c '{ExitCode, Details: .Details | {oom_killed, exit_message}}' <<<"$dterm")"
  check "docker OOM reported" "$(jq -r '.Details.oom_killed' <<<"$dterm")" true
  curl -sf -X DELETE "$api/v1/job/dock?purge=true" >/dev/null
  curl -sf -X DELETE "$api/v1/job/dockoom?purge=true" >/dev/null
fi

# --- restore after kill -9 --------------------------------------------------------------------------------------------
if [ -n "${web:-}" ]; then
  kill -9 "$agent_pid"
  wait "$agent_pid" 2>/dev/null
  say "agent killed with SIGKILL; tasks still running: $(cat "$web/cgroup.procs" | wc -l) exec processes"
  start_agent || exit 1
  wait_for 300 "the restored allocation to be running" sh -c "[ \"\$(curl -sf $api/v1/allocation/$alloc | jq -r .ClientStatus)\" = running ]"
  check "exec task processes after restore (same pids)" "$(sort "$web/cgroup.procs" | tr '\n' ' ')" "$web_pids_before"
  check "exec task state after restore" "$(get "/v1/allocation/$alloc" | jq -r .TaskStates.web.State)" running
  restarts=$(get "/v1/allocation/$alloc" | jq -r '[.TaskStates[].Restarts] | add')
  check "restarts after restore" "$restarts" 0
fi

# --- stop: nothing left behind ---------------------------------------------------------------------------------------
curl -sf -X DELETE "$api/v1/job/limits?purge=true" >/dev/null
curl -sf -X DELETE "$api/v1/job/oom?purge=true" >/dev/null
wait_for 300 "the task cgroups to go" sh -c "[ -z \"\$(find $cg -maxdepth 6 -type d -name '$alloc.*')\" ]"
parent_dir=$(dirname "${web:-/nonexistent/x}")
kill -TERM "$agent_pid"
wait_for 120 "the agent to stop" sh -c "! kill -0 $agent_pid"
check "node parent after agent stop" "$( [ -d "$parent_dir" ] && echo "left: $parent_dir" || echo gone)" gone
left=$(find "$cg" -maxdepth 6 -type d -name 'berth-*' ! -name berth-agent 2>/dev/null | tr '\n' ' ')
say "berth cgroups left on the host after this placement: ${left:-none}"
[ -n "$holder_pid" ] && kill "$holder_pid" 2>/dev/null

if [ "$failures" -eq 0 ]; then say "PASS"; echo "PASS $placement" >> "${OUT:-/tmp}/placements.result"; exit 0; fi
say "$failures check(s) failed; agent log tail:"; tail -40 "$log"
echo "FAIL $placement" >> "${OUT:-/tmp}/placements.result"
exit 1
