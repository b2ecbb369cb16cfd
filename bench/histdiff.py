#!/usr/bin/env python3
# Diff of two `jcmd PID GC.class_histogram` outputs: bytes and instances per class, largest growth first.
# Usage: bench/histdiff.py BEFORE AFTER [ROWS]
import sys,re
def rd(p):
    d={}
    for l in open(p):
        m=re.match(r'\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)',l)
        if m: d[m.group(3)]=(int(m.group(1)),int(m.group(2)))
    return d
a=rd(sys.argv[1]); b=rd(sys.argv[2])
rows=[]
for k in set(a)|set(b):
    ia,ba=a.get(k,(0,0)); ib,bb=b.get(k,(0,0))
    rows.append((bb-ba,ib-ia,k))
rows.sort(reverse=True)
print("total bytes diff", sum(r[0] for r in rows))
for r in rows[:int(sys.argv[3]) if len(sys.argv)>3 else 50]: print("%10d %8d %s"%r)
