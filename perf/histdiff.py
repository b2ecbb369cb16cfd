#!/usr/bin/env python3
# Per-class difference of two `jcmd PID GC.class_histogram` outputs: bytes and instances, largest growth first.
# usage: perf/histdiff.py BEFORE.txt AFTER.txt [ROWS]            (default 50 rows)
#        perf/histdiff.py BEFORE.txt AFTER.txt --per N [ROWS]    (also per allocation: the difference divided by N)
import re
import sys

def load(path):
    d = {}
    for line in open(path):
        m = re.match(r'\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)', line)
        if m:
            d[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return d

args = sys.argv[1:]
per = None
if '--per' in args:
    i = args.index('--per')
    per = int(args[i + 1])
    del args[i:i + 2]
a, b = load(args[0]), load(args[1])
limit = int(args[2]) if len(args) > 2 else 50
rows = []
for k in set(a) | set(b):
    ia, ba = a.get(k, (0, 0))
    ib, bb = b.get(k, (0, 0))
    rows.append((bb - ba, ib - ia, k))
rows.sort(reverse=True)
total = sum(r[0] for r in rows)
if per:
    print("total delta %d bytes = %.0f B/alloc" % (total, total / per))
    for r in rows[:limit]:
        print("%9d B %8.0f B/alloc %7.2f inst/alloc %s" % (r[0], r[0] / per, r[1] / per, r[2]))
else:
    print("total bytes diff", total)
    for r in rows[:limit]:
        print("%10d %8d %s" % r)
