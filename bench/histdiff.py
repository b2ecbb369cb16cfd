#!/usr/bin/env python3
import sys,re
# Per-class difference of two `jcmd GC.class_histogram` outputs: bytes and instances per allocation, largest first.
# usage: bench/histdiff.py BEFORE.txt AFTER.txt N [ROWS]
def load(p):
    d={}
    for l in open(p):
        m=re.match(r'\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)',l)
        if m: d[m.group(3)]=(int(m.group(1)),int(m.group(2)))
    return d
a=load(sys.argv[1]); b=load(sys.argv[2]); n=int(sys.argv[3])
rows=[]
for k in set(a)|set(b):
    ca,ba=a.get(k,(0,0)); cb,bb=b.get(k,(0,0))
    rows.append((bb-ba,cb-ca,k))
rows.sort(reverse=True)
tot=sum(r[0] for r in rows)
print("total delta %d bytes = %.0f B/alloc"%(tot,tot/n))
for r in rows[:int(sys.argv[4]) if len(sys.argv)>4 else 45]:
    print("%9d B %8.0f B/alloc %7.2f inst/alloc %s"%(r[0],r[0]/n,r[1]/n,r[2]))
