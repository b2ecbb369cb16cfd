#!/bin/sh
# Stands in for nvidia-smi in tests: checks the arguments like the real tool and prints real-format
# `--format=csv,noheader,nounits` output. Every call increments a counter next to the script; from the
# second call on, GPU-bbbb... is gone (a GPU that falls off the bus between calls).
expected='--query-gpu=uuid,name,pci.bus_id,memory.total,memory.used,utilization.gpu,utilization.memory,power.draw,power.limit,temperature.gpu,clocks.max.sm,clocks.max.memory,driver_version,display_mode,persistence_mode,ecc.errors.uncorrected.volatile.l1_cache,ecc.errors.uncorrected.volatile.l2_cache,ecc.errors.uncorrected.volatile.device_memory'
if [ "$1" != "$expected" ] || [ "$2" != "--format=csv,noheader,nounits" ]; then
  echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help." >&2
  exit 2
fi
dir=$(dirname "$0")
count=$(cat "$dir/calls" 2>/dev/null || echo 0)
count=$((count + 1))
echo "$count" > "$dir/calls.$$" && mv "$dir/calls.$$" "$dir/calls"   # atomic: concurrent calls never read a truncated file
if [ -f "$dir/fail" ]; then
  echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
  exit 9
fi
echo "GPU-aaaaaaaa-1111-2222-3333-444444444444, Tesla T4, 00000000:00:1E.0, 15360, 1024, 37, 12, 27.43, 70.00, 41, 1590, 5001, 535.104.05, Disabled, Enabled, 0, 0, 2"
if [ "$count" -lt 2 ]; then
  echo "GPU-bbbbbbbb-1111-2222-3333-444444444444, Tesla T4, 00000000:00:1F.0, 15360, 0, 0, 0, 9.87, 70.00, 33, 1590, 5001, 535.104.05, Disabled, Enabled, 0, 0, 0"
fi
echo "GPU-cccccccc-1111-2222-3333-444444444444, NVIDIA GeForce RTX 3090, 00000000:65:00.0, 24576, 22000, 100, 87, [N/A], [N/A], 80, 2100, 9751, 535.104.05, Enabled, Disabled, [N/A], [Not Supported], N/A"
