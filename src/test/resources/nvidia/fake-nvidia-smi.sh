#!/bin/sh
# Stands in for nvidia-smi in tests: checks the arguments like the real tool and prints the real tool's formats.
#
#   --query-gpu=<Berth's fields> --format=csv,noheader,nounits   one CSV line per GPU. Every such call increments a
#       counter next to the script; from the second call on, GPU-bbbb... is gone (a GPU that falls off the bus).
#       Files next to the script change the answer: `fail` (the driver is gone: exit 9), `hide` (UUIDs, one a line,
#       left out: a GPU that vanished), `mig` (GPU-aaaa... is in MIG mode; its lines are `nvidia-smi -L` MIG lines).
#   --query-compute-apps=pid,gpu_uuid,used_memory --format=csv,noheader,nounits   prints the file `compute-apps`
#       (lines "pid, GPU-uuid, MiB" as the real tool; a test writes the pids of real processes there). No file: no
#       output, as the real tool when nothing runs.
#   pmon -c 1 -s u   the real tool's two header lines, then the file `pmon` (rows "gpu-index pid type sm mem ...").
#   -L   "GPU <i>: <name> (UUID: <uuid>)" per GPU, followed by the `mig` file's lines for GPU 0 in MIG mode (GPU 0
#       is then an A100, as only such GPUs have MIG).
dir=$(dirname "$0")
fields='uuid,name,pci.bus_id,memory.total,memory.used,utilization.gpu,utilization.memory,power.draw,power.limit,temperature.gpu,clocks.max.sm,clocks.max.memory,driver_version,display_mode,persistence_mode,ecc.errors.uncorrected.volatile.l1_cache,ecc.errors.uncorrected.volatile.l2_cache,ecc.errors.uncorrected.volatile.device_memory,index,mig.mode.current'
invalid() {
  echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help." >&2
  exit 2
}
if [ -f "$dir/fail" ]; then
  echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running." >&2
  exit 9
fi
hidden() {
  [ -f "$dir/hide" ] && grep -qx "$1" "$dir/hide"
}
mig_mode=Disabled
name_a="Tesla T4"
if [ -f "$dir/mig" ]; then mig_mode=Enabled; name_a="NVIDIA A100-SXM4-40GB"; fi
case "$1" in
  --query-compute-apps=pid,gpu_uuid,used_memory)
    [ "$2" = "--format=csv,noheader,nounits" ] || invalid
    [ -f "$dir/compute-apps" ] && cat "$dir/compute-apps"
    exit 0 ;;
  pmon)
    [ "$2 $3 $4 $5" = "-c 1 -s u" ] || invalid
    echo "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command "
    echo "# Idx           #    C/G      %      %      %      %      %      %    name "
    if [ -f "$dir/pmon" ]; then cat "$dir/pmon"; else echo "    0          -     -      -      -      -      -      -      -    -              "; fi
    exit 0 ;;
  -L)
    [ $# -eq 1 ] || invalid
    hidden GPU-aaaaaaaa-1111-2222-3333-444444444444 || {
      echo "GPU 0: $name_a (UUID: GPU-aaaaaaaa-1111-2222-3333-444444444444)"
      [ -f "$dir/mig" ] && cat "$dir/mig"
    }
    hidden GPU-cccccccc-1111-2222-3333-444444444444 || echo "GPU 2: NVIDIA GeForce RTX 3090 (UUID: GPU-cccccccc-1111-2222-3333-444444444444)"
    exit 0 ;;
  --query-gpu=$fields)
    [ "$2" = "--format=csv,noheader,nounits" ] || invalid ;;
  *) invalid ;;
esac
count=$(cat "$dir/calls" 2>/dev/null || echo 0)
count=$((count + 1))
echo "$count" > "$dir/calls.$$" && mv "$dir/calls.$$" "$dir/calls"   # atomic: concurrent calls never read a truncated file
hidden GPU-aaaaaaaa-1111-2222-3333-444444444444 || \
  echo "GPU-aaaaaaaa-1111-2222-3333-444444444444, $name_a, 00000000:00:1E.0, 15360, 1024, 37, 12, 27.43, 70.00, 41, 1590, 5001, 535.104.05, Disabled, Enabled, 0, 0, 2, 0, $mig_mode"
if [ "$count" -lt 2 ]; then
  echo "GPU-bbbbbbbb-1111-2222-3333-444444444444, Tesla T4, 00000000:00:1F.0, 15360, 0, 0, 0, 9.87, 70.00, 33, 1590, 5001, 535.104.05, Disabled, Enabled, 0, 0, 0, 1, [N/A]"
fi
hidden GPU-cccccccc-1111-2222-3333-444444444444 || \
  echo "GPU-cccccccc-1111-2222-3333-444444444444, NVIDIA GeForce RTX 3090, 00000000:65:00.0, 24576, 22000, 100, 87, [N/A], [N/A], 80, 2100, 9751, 535.104.05, Enabled, Disabled, [N/A], [Not Supported], N/A, 2, [N/A]"
