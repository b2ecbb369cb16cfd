#!/usr/bin/env bash
# A real cgroup v2 machine for Berth's tests, from Debian packages only: Debian's stock kernel (linux-image-amd64,
# fetched with apt-get download and unpacked, never installed) booted by QEMU under software emulation (TCG) with
# cgroup_no_v1=all, so the only cgroup hierarchy is the unified one, mounted nsdelegate,memory_recursiveprot as systemd
# mounts it. The VM sees this machine's / read-only over 9p under a tmpfs overlay, so the JDK, the built jar and every
# tool installed here are there at the same paths, and whatever the command writes outside OUT is gone with the VM.
#
#   .ci/v2-vm.sh [-o OUT] COMMAND [ARG...]
#
# runs COMMAND as root in the VM, in the current directory, and exits with its status. OUT (default target/v2-vm) is a
# directory of this machine that the VM mounts read-write at the same path and exports as $OUT: results come back
# there. The console log (kernel and COMMAND's output) is OUT/console.log; COMMAND's output is also printed here.
#
# Pieces are built once into BERTH_VM_CACHE (default ~/.cache/berth-v2vm): the kernel, a static busybox and a small
# initramfs with the virtio, 9p, netfs, fscache and overlay modules. /dev/kvm on these machines cannot boot a stock
# kernel, hence TCG: Java runs ~25x slower than here, so keep commands focused.
#
# Environment: BERTH_VM_MEMORY (default 4G), BERTH_VM_CPUS (default 2), BERTH_VM_TIMEOUT seconds (default 1800).
set -euo pipefail

out="$PWD/target/v2-vm"
if [ "${1:-}" = "-o" ]; then
  out="$(realpath -m "$2")"
  shift 2
fi
[ $# -gt 0 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d'; exit 2; }

cache="${BERTH_VM_CACHE:-$HOME/.cache/berth-v2vm}"
memory="${BERTH_VM_MEMORY:-4G}"
cpus="${BERTH_VM_CPUS:-2}"
timeout_s="${BERTH_VM_TIMEOUT:-1800}"
here="$(cd "$(dirname "$0")" && pwd)"

need_packages() {
  local missing=()
  command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
  command -v cpio >/dev/null || missing+=(cpio)
  command -v jq >/dev/null || missing+=(jq)
  command -v curl >/dev/null || missing+=(curl)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "v2-vm: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# The kernel package linux-image-amd64 points at, the busybox-static binary, and the initramfs, each made once.
build_pieces() {
  mkdir -p "$cache"
  if [ -f "$cache/ready" ]; then
    return
  fi
  local work="$cache/build"
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  apt-get update -qq
  local image
  image="$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)"
  [ -n "$image" ] || { echo "v2-vm: cannot resolve linux-image-amd64's kernel package" >&2; exit 1; }
  # apt-get download as root warns that _apt cannot write here; the download itself works.
  apt-get download "$image" busybox-static 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true
  dpkg -x linux-image-*.deb kernel
  dpkg -x busybox-static_*.deb busybox
  local version
  version="$(ls kernel/lib/modules)"
  cp "kernel/boot/vmlinuz-$version" "$cache/vmlinuz"

  local root="$work/initramfs" modules="kernel/lib/modules/$version/kernel"
  mkdir -p "$root"/{bin,dev,proc,sys,ro,rw,newroot,modules}
  cp busybox/bin/busybox "$root/bin/busybox"
  # In dependency order (each module's "depends=" comes before it).
  local order=(drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev
               drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci net/9p/9pnet net/9p/9pnet_virtio
               fs/netfs/netfs fs/fscache/fscache fs/9p/9p fs/overlayfs/overlay)
  local module
  for module in "${order[@]}"; do
    cp "$modules/$module.ko" "$root/modules/"
    basename "$module" >> "$root/modules/order"
  done
  cp "$here/v2-vm-initramfs-init" "$root/init"
  chmod 755 "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/initramfs.gz"
  echo "$version" > "$cache/ready"
  cd / && rm -rf "$work"
}

need_packages
build_pieces

mkdir -p "$out"
job="$out/.job"
rm -rf "$job" && mkdir -p "$job"
{
  echo "cd $(printf '%q' "$PWD")"
  echo "export OUT=$(printf '%q' "$out") PATH=$(printf '%q' "$PATH") HOME=/root LANG=C.UTF-8"
  [ -n "${JAVA_HOME:-}" ] && echo "export JAVA_HOME=$(printf '%q' "$JAVA_HOME")"
  printf '%q ' "$@"
  echo
} > "$job/command.sh"

console="$out/console.log"
: > "$console"
echo "v2-vm: booting Debian $(cat "$cache/ready") (cgroup v2 only, TCG, $cpus CPUs, $memory) for: $*" >&2
started=$(date +%s)
set +e
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
  -accel tcg,thread=multi -cpu max -m "$memory" -smp "$cpus" \
  -display none -monitor none -serial "file:$console" -no-reboot \
  -kernel "$cache/vmlinuz" -initrd "$cache/initramfs.gz" \
  -append "console=ttyS0 panic=-1 cgroup_no_v1=all psi=1 berth.job=$job berth.init=$here/v2-vm-init" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" \
  </dev/null
qemu_rc=$?
set -e
echo "v2-vm: the VM ran $(( $(date +%s) - started )) s" >&2
[ -f "$job/output" ] && cat "$job/output"
if [ ! -f "$job/rc" ]; then
  echo "v2-vm: the command did not finish (qemu exit $qemu_rc); the console's last lines:" >&2
  tail -n 40 "$console" >&2
  exit 1
fi
exit "$(cat "$job/rc")"
