#!/usr/bin/env bash
# Measures the Prometheus scrape of a running Berth agent: N sequential scrapes with curl, reporting
# p50/p90/p99/max of curl's time_total and the body size. Scrapes read the collected snapshot only,
# so this is the cost of rendering the registry, not of collecting stats.
#
#   perf/scrape.sh [N] [URL]
#   N    number of measured scrapes (default 200; 20 unmeasured warm-up scrapes run first)
#   URL  default http://127.0.0.1:4646/actuator/prometheus
set -euo pipefail

n="${1:-200}"
url="${2:-http://127.0.0.1:4646/actuator/prometheus}"
warmup=20

if ! curl -sf -o /dev/null "$url"; then
  echo "no agent answering at $url" >&2
  exit 1
fi

for _ in $(seq "$warmup"); do curl -sf -o /dev/null "$url"; done

times="$(mktemp)"
trap 'rm -f "$times"' EXIT
for _ in $(seq "$n"); do
  curl -sf -o /dev/null -w '%{time_total}\n' "$url" >> "$times"
done

size="$(curl -sf "$url" | wc -c)"
series="$(curl -sf "$url" | grep -vc '^#')"
sort -n "$times" | awk -v n="$n" -v size="$size" -v series="$series" -v url="$url" '
  { t[NR] = $1 * 1000 }
  function pct(p,   i) { i = int(p * n + 0.999999); if (i < 1) i = 1; if (i > n) i = n; return t[i] }
  END {
    printf "url=%s scrapes=%d body=%d bytes series=%d\n", url, n, size, series
    printf "p50=%.2f ms  p90=%.2f ms  p99=%.2f ms  max=%.2f ms  min=%.2f ms\n", pct(0.50), pct(0.90), pct(0.99), t[n], t[1]
  }'
