#!/usr/bin/env bash
# Thread CPU per read of one kernel file: C pread (perf/read-path/pread-loop.c) vs the JVM's FileChannel read into a
# direct buffer vs the critical foreign-function pread into a byte[] (perf/read-path/ReadBench.java), with the shipped
# JVM options (bin/jvm.options: C1 only). Needs gcc and a JDK 22+ (JAVA, default: the newest under /usr/lib/jvm).
#
# Usage: perf/read-path.sh [FILE] [READS]   (default: /sys/fs/cgroup/cpuacct/cpuacct.usage, 200000)
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-/sys/fs/cgroup/cpuacct/cpuacct.usage}; READS=${2:-200000}
JAVA=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java | sort -t/ -k4 -V -r | head -1)}
WORK=$(mktemp -d /tmp/berth-read-path.XXXXXX); trap 'rm -rf "$WORK"' EXIT
gcc -O2 -o "$WORK/pread-loop" perf/read-path/pread-loop.c
"$(dirname "$(readlink -f "$JAVA")")/javac" -d "$WORK" perf/read-path/ReadBench.java
echo "# perf/read-path.sh $FILE $READS, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$WORK/pread-loop" "$FILE" "$READS"
"$JAVA" @bin/jvm.options -cp "$WORK" ReadBench "$FILE" "$READS"
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
