-- wrk script: each connection waits DELAY_MS (default 1) after every response before its next request, so N
-- connections offer about N * 1000 / (DELAY_MS + latency) requests per second instead of saturating the machine.
-- Used by perf/scrape-1000.sh (WRK_PACED_CONNS) to read /stats latency at the issue's target rate (15k req/s).
local delay_ms = tonumber(os.getenv("DELAY_MS") or "1")

function delay()
  return delay_ms
end
