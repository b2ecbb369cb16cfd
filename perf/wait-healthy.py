#!/usr/bin/env python3
# Waits until the agent on 127.0.0.1:PORT answers /v1/agent/health with 200, polling every 10 ms from this one process
# (a curl started 50 times a second took CPU from the starting agent); exits 1 if process PID is gone first.
# usage: perf/wait-healthy.py PORT PID
import http.client
import os
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
while True:
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", "/v1/agent/health")
        if c.getresponse().status == 200:
            break
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    time.sleep(0.01)
