#!/usr/bin/env bash
# Brings up a local Docker engine and builds the images Berth's Docker tests use. Idempotent; needs root.
#
#   .ci/docker-setup.sh            ensure engine + images (default)
#   .ci/docker-setup.sh engine     ensure only the engine
#   .ci/docker-setup.sh images     ensure only the images (engine must answer)
#   .ci/docker-setup.sh --rebuild  rebuild the images even when present
#   .ci/docker-setup.sh stop       stop the dockerd this script started
#
# Nothing here talks to a container registry: the images are built FROM scratch out of files of this machine
# (Debian's busybox-static, the local Temurin 25 JDK) with `docker build --network none`.
# The engine runs with --bridge=none --iptables=false, so containers only get network mode none or host.
set -euo pipefail

SOCK=/var/run/docker.sock
LOG=${BERTH_DOCKERD_LOG:-/var/log/berth-dockerd.log}
PIDFILE=/var/run/berth-dockerd.pid
JDK=${BERTH_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
BUSYBOX_IMAGE=berth-test/busybox:1
JRE_IMAGE=berth-test/jre:25
WAIT_SECONDS=${BERTH_DOCKERD_WAIT:-60}

log() { echo "docker-setup: $*" >&2; }

engine_answers() {
    command -v docker >/dev/null 2>&1 && timeout 10 docker -H "unix://$SOCK" info >/dev/null 2>&1
}

apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    if ((${#missing[@]})); then
        log "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # policy-rc.d 101: the package must not try to start services through an init system we may not have
        local policy=/usr/sbin/policy-rc.d created_policy=0
        if [[ ! -e $policy ]]; then printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; created_policy=1; fi
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
        if ((created_policy)); then rm -f "$policy"; fi
    fi
}

ensure_engine() {
    if engine_answers; then
        log "engine answers on $SOCK"
        return
    fi
    if [[ $(id -u) -ne 0 ]]; then
        log "no Docker engine answers on $SOCK and this is not root: start one, or run $0 as root"
        exit 1
    fi
    command -v dockerd >/dev/null 2>&1 || apt_install docker.io
    # docker.io ships the 20.10 CLI too; an already installed newer CLI (e.g. /usr/local/bin/docker) talks to it fine
    command -v docker >/dev/null 2>&1 || apt_install docker.io
    if [[ -f $PIDFILE ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
        log "dockerd $(cat "$PIDFILE") is running but not answering yet"
    else
        rm -f "$SOCK"
        log "starting dockerd (log: $LOG)"
        mkdir -p "$(dirname "$LOG")"
        # setsid: the daemon must outlive this script and the CI step that ran it
        setsid dockerd --host "unix://$SOCK" --bridge=none --iptables=false --ip-masq=false \
            --pidfile "$PIDFILE" >>"$LOG" 2>&1 </dev/null &
    fi
    local deadline=$((SECONDS + WAIT_SECONDS))
    until engine_answers; do
        if ((SECONDS >= deadline)); then
            log "dockerd did not answer within ${WAIT_SECONDS}s; last log lines:"
            tail -n 30 "$LOG" >&2 || true
            exit 1
        fi
        sleep 0.5
    done
    log "engine up: $(docker version --format '{{.Server.Version}} (API {{.Server.APIVersion}})')"
}

# Bump when an image recipe below changes: images built from an older recipe are rebuilt.
RECIPE=2

image_present() {
    [[ $(docker image inspect --format '{{ index .Config.Labels "dev.berth.recipe" }}' "$1" 2>/dev/null) == "$RECIPE" ]]
}

build_busybox() {
    apt_install busybox-static
    local ctx
    ctx=$(mktemp -d)
    cp /bin/busybox "$ctx/busybox"
    cat >"$ctx/Dockerfile" <<'EOF'
FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
# also the usual places (/usr/bin/env, /usr/bin/setsid, …): raw_exec's launch line names them
RUN mkdir -p /usr/bin /usr/sbin /sbin && /bin/busybox --install -s 2>/dev/null; \
    mkdir -p /tmp /etc /root && chmod 1777 /tmp \
 && echo 'root:x:0:0:root:/root:/bin/sh' > /etc/passwd && echo 'root:x:0:' > /etc/group
CMD ["/bin/sh"]
EOF
    log "building $BUSYBOX_IMAGE"
    DOCKER_BUILDKIT=0 docker build --quiet --network none --label "dev.berth.recipe=$RECIPE" -t "$BUSYBOX_IMAGE" "$ctx" >/dev/null
    rm -rf "$ctx"
}

# A JRE image without a registry: jlink a runtime out of the local JDK 25 and copy it, plus every shared
# library it links against (found with ldd), onto the busybox image (which gives the tasks a /bin/sh).
build_jre() {
    [[ -x $JDK/bin/jlink ]] || { log "no JDK at $JDK"; exit 1; }
    local ctx
    ctx=$(mktemp -d)
    log "jlinking a runtime from $JDK"
    local modules
    modules=$("$JDK/bin/java" --list-modules | sed 's/@.*//' | grep -vxE 'jdk.jlink|jdk.jpackage|jdk.incubator.vector' | paste -sd, -)
    "$JDK/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
        --output "$ctx/rootfs/opt/java"
    # copy the host libraries at their own paths (and ld.so.cache, which points at exactly those paths)
    local lib
    {
        find "$ctx/rootfs/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -print0 | xargs -0 ldd 2>/dev/null \
            | awk '/=> \//{print $3} /^\s*\/[^ ]*ld-linux/{print $1}'
        echo /lib64/ld-linux-x86-64.so.2
    } | sort -u | while read -r lib; do
        [[ -e $lib ]] && cp --parents -L "$lib" "$ctx/rootfs/"
    done
    cp --parents -L /etc/ld.so.cache "$ctx/rootfs/"
    cat >"$ctx/Dockerfile" <<EOF
FROM $BUSYBOX_IMAGE
COPY rootfs/ /
ENV JAVA_HOME=/opt/java PATH=/opt/java/bin:/bin:/usr/bin:/sbin:/usr/sbin
RUN ["/opt/java/bin/java", "-version"]
EOF
    log "building $JRE_IMAGE"
    DOCKER_BUILDKIT=0 docker build --quiet --network none --label "dev.berth.recipe=$RECIPE" -t "$JRE_IMAGE" "$ctx" >/dev/null
    rm -rf "$ctx"
}

ensure_images() {
    local rebuild=${1:-0}
    if ((rebuild)) || ! image_present "$BUSYBOX_IMAGE"; then build_busybox; fi
    if ((rebuild)) || ! image_present "$JRE_IMAGE"; then build_jre; fi
    # images replaced by a rebuild are left dangling: drop ours
    docker image prune -f --filter "label=dev.berth.recipe" >/dev/null
    log "images: $(docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' 'berth-test/*' | tr '\n' ' ')"
}

stop_engine() {
    if [[ -f $PIDFILE ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
        local pid
        pid=$(cat "$PIDFILE")
        log "stopping dockerd $pid"
        kill "$pid"
        local deadline=$((SECONDS + 30))
        while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
    else
        log "no dockerd started by this script is running"
    fi
}

case "${1:-all}" in
    all) ensure_engine; ensure_images 0 ;;
    --rebuild) ensure_engine; ensure_images 1 ;;
    engine) ensure_engine ;;
    images) ensure_images 0 ;;
    stop) stop_engine ;;
    *) echo "usage: $0 [all|--rebuild|engine|images|stop]" >&2; exit 2 ;;
esac
