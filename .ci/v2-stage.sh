#!/usr/bin/env bash
# The cgroup v2 stage: Berth on a real cgroup v2 kernel (Debian's stock kernel, cgroup_no_v1=all, in the QEMU VM of
# .ci/v2-vm.sh). Runs the real-kernel test classes listed in .ci/v2/test-classes with JUnit's console launcher, then the
# agent as shipped (bin/berth with its AOT cache) in each placement of .ci/v2/placement.sh. Results: target/v2-stage/
# (JUnit XML under junit/, each placement's log and agent log, the VM console).
#
#   .ci/v2-stage.sh                                   # everything (~15 min on 2 cores)
#   BERTH_V2_TESTS=0 .ci/v2-stage.sh                  # placements only
#   BERTH_V2_PLACEMENTS="container helm" .ci/v2-stage.sh   # some placements (none: only the tests)
#
# Builds what it needs first (jar, AOT cache, test classes) unless BERTH_V2_NO_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/v2-stage"
rm -rf "$out" && mkdir -p "$out"

java_home() { # a JDK 21+ as the build uses: JAVA_HOME when it is one, else the newest under /usr/lib/jvm
  local candidate version
  for candidate in "${JAVA_HOME:-}" $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [ "${version%%.*}" -ge 21 ] 2>/dev/null; then echo "${candidate%/}"; return; fi
  done
  echo "v2-stage: no JDK 21+ found" >&2; exit 1
}
jdk="$(java_home)"

if [ "${BERTH_V2_NO_BUILD:-0}" != 1 ]; then
  ./mvnw -B -ntp -q -Paot package -DskipTests -Dberth.prereqs.skip=true
fi
[ -f target/berth/berth.aot ] || echo "v2-stage: no AOT cache at target/berth/berth.aot; the agent starts without it" >&2

# The test classpath, less the JUnit Platform jars the console launcher brings itself (one engine of each kind).
./mvnw -B -ntp -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/deps.txt" -Dberth.prereqs.skip=true
junit_version=$(tr ':' '\n' < "$out/deps.txt" | sed -n 's|.*/junit-platform-commons-\([0-9.]*\)\.jar$|\1|p' | head -1)
[ -n "$junit_version" ] || { echo "v2-stage: cannot find the JUnit Platform version on the test classpath" >&2; exit 1; }
./mvnw -B -ntp -q dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" \
  -DoutputDirectory="$out" -Dmdep.stripVersion=true -Dberth.prereqs.skip=true
mv "$out/junit-platform-console-standalone.jar" "$out/junit-console.jar"
{ printf '%s:%s' "$PWD/target/test-classes" "$PWD/target/classes"
  tr ':' '\n' < "$out/deps.txt" | grep -vE '/(junit-platform-|junit-jupiter-|opentest4j-|apiguardian-)' | sed 's/^/:/' | tr -d '\n'
} > "$out/test-classpath"

# The docker driver on v2 runs against an engine inside the VM, with the locally built test image.
if [ "${BERTH_V2_DOCKER:-1}" = 1 ] && docker image inspect berth-test/busybox:1 >/dev/null 2>&1; then
  docker save berth-test/busybox:1 -o "$out/busybox.tar"
fi

JAVA="$jdk/bin/java" JAVA_HOME="$jdk" .ci/v2-vm.sh -o "$out" env JAVA="$jdk/bin/java" JAVA_HOME="$jdk" \
  BERTH_V2_TESTS="${BERTH_V2_TESTS:-1}" BERTH_V2_PLACEMENTS="${BERTH_V2_PLACEMENTS:-host service container helm}" \
  bash .ci/v2/inside.sh
