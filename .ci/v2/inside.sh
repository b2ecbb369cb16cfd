#!/usr/bin/env bash
# The v2 stage inside the VM (see .ci/v2-stage.sh): the real-kernel test classes on this kernel, then the agent as
# shipped in every placement, two at a time (the VM has two CPUs and a start is mostly one thread).
set -uo pipefail
cd "$(dirname "$0")/../.."
status=0
echo "== cgroup v2: $(uname -r); root controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"

if [ "${BERTH_V2_TESTS:-1}" = 1 ]; then
  echo "== real-kernel test classes"
  classes=()
  for c in $(cat .ci/v2/test-classes); do classes+=(--select-class "$c"); done
  started=$(date +%s)
  # The test classes on the JVM's own class path (as Surefire puts them): tests that start a JVM child with
  # java.class.path need it there.
  "$JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
    -cp "$(cat "$OUT/test-classpath"):$OUT/junit-console.jar" org.junit.platform.console.ConsoleLauncher execute \
    --reports-dir "$OUT/junit" --details=tree --disable-banner \
    --fail-if-no-tests "${classes[@]}" > "$OUT/tests.log" 2>&1
  rc=$?
  grep -vE '^\s*$' "$OUT/tests.log" | tail -n 60
  echo "== test classes: exit $rc after $(( $(date +%s) - started )) s"
  [ $rc -eq 0 ] || status=1
fi

# A Docker engine in the VM (the host's docker.io, cgroupfs driver, data on tmpfs) for the docker driver on v2.
if [ -f "$OUT/busybox.tar" ] && command -v dockerd >/dev/null; then
  echo "== docker engine"
  mkdir -p /tmp/docker
  dockerd --bridge=none --iptables=false --ip6tables=false --data-root=/tmp/docker/data --exec-root=/tmp/docker/exec \
    --pidfile=/tmp/docker/pid --host=unix:///var/run/docker.sock > "$OUT/dockerd.log" 2>&1 &
  for _ in $(seq 150); do docker info >/dev/null 2>&1 && break; sleep 2; done
  if docker load -i "$OUT/busybox.tar" >/dev/null; then
    echo "docker $(docker version --format '{{.Server.Version}}'), cgroup driver $(docker info --format '{{.CgroupDriver}} v{{.CgroupVersion}}')"
    export BERTH_V2_DOCKER_IMAGE="$(docker images --format '{{.Repository}}:{{.Tag}}' | head -1)"
  else
    echo "the docker engine did not start; see dockerd.log"; tail -20 "$OUT/dockerd.log"; status=1
  fi
fi

if [ "${BERTH_V2_PLACEMENTS:-host service container helm}" != none ]; then
  : > "$OUT/placements.result"
  set -- ${BERTH_V2_PLACEMENTS:-host service container helm}
  port=4700
  while [ $# -gt 0 ]; do
    pids=()
    for p in "$1" ${2:+"$2"}; do
      port=$((port + 1))
      .ci/v2/placement.sh "$p" "$port" > "$OUT/placement-$p.log" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    shift; [ $# -gt 0 ] && shift
  done
  for f in "$OUT"/placement-*.log; do echo "== $(basename "$f" .log)"; cat "$f"; done
  echo "== placements:"; cat "$OUT/placements.result"
fi
exit $status
