#!/usr/bin/env python3
"""Which hash tables stay grown in a heap dump (issue 15, "memory that comes back").

Lists the HashMap / ConcurrentHashMap / HashSet tables (their Node[] arrays) of at least MIN slots, with how many slots
are used, the map that holds each and who holds that map (class and field), so a table grown to a thousand entries and
never shrunk after the entries went can be told from one that is still in use.

Bytes are counted with compressed references (4 a slot), as the agent runs (a heap under 32 GB).

Usage: perf/hprof-tables.py DUMP.hprof [MIN=256] [CLASS ...]
       (a dump from perf/heap-retain.sh OUT N 1, perf/footprint.sh with HIST=DIR DUMP=1, or jcmd GC.heap_dump)
       With CLASS names (as the histogram writes them, e.g. java.util.LinkedHashMap): also who holds their instances,
       counted by the holder's class and field.
"""
import struct
import sys
from collections import defaultdict

TYPE_SIZES = {2: None, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
TABLE_CLASSES = ("java.util.HashMap$Node[]", "java.util.concurrent.ConcurrentHashMap$Node[]",
                 "java.util.LinkedHashMap$Entry[]", "java.util.HashMap$TreeNode[]")


def records(data, idsize):
    pos = data.index(b"\0") + 1 + 4 + 8
    while pos < len(data):
        tag, _, length = struct.unpack_from(">BII", data, pos)
        pos += 9
        yield tag, pos, length
        pos += length


def main():
    path = sys.argv[1]
    min_len = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    wanted = set(sys.argv[3:])
    byte_arrays = {}  # byte[] id -> length, when "byte[]" is asked for
    obj_arrays = []  # (array id, class id, start, length) of every object array, when holders are asked for
    data = open(path, "rb").read()
    idsize = struct.unpack_from(">I", data, data.index(b"\0") + 1)[0]
    idfmt = ">Q" if idsize == 8 else ">I"

    def rid(p):
        return struct.unpack_from(idfmt, data, p)[0]

    strings, class_names = {}, {}
    classes = {}  # class id -> (super id, [(name, type)])
    arrays = {}  # array id -> (class name, length, used slots)
    segments = []
    for tag, pos, length in records(data, idsize):
        if tag == 0x01:
            strings[rid(pos)] = data[pos + idsize:pos + length].decode("utf-8", "replace")
        elif tag == 0x02:
            class_names[rid(pos + 4)] = rid(pos + 8 + idsize)
        elif tag in (0x0C, 0x1C):
            segments.append((pos, pos + length))
    names = {cid: strings.get(nid, "?").replace("/", ".") for cid, nid in class_names.items()}

    def pretty(name):
        dims = 0
        while name.startswith("["):
            dims += 1
            name = name[1:]
        if dims and name.startswith("L") and name.endswith(";"):
            name = name[1:-1]
        return name + "[]" * dims

    names = {cid: pretty(n) for cid, n in names.items()}

    def skip_value(t, p):
        return p + (idsize if t == 2 else TYPE_SIZES[t])

    instances = []  # (obj id, class id, field bytes start, end)
    for start, end in segments:
        p = start
        while p < end:
            sub = data[p]
            p += 1
            if sub == 0xFF or sub == 0x05 or sub == 0x07:
                p += idsize
            elif sub == 0x01:
                p += 2 * idsize
            elif sub in (0x02, 0x03, 0x08):
                p += idsize + 8
            elif sub in (0x04, 0x06):
                p += idsize + 4
            elif sub == 0x20:
                cid = rid(p)
                sup = rid(p + 4 + idsize)
                p += 7 * idsize + 4 + 4
                (cp,) = struct.unpack_from(">H", data, p)
                p += 2
                for _ in range(cp):
                    t = data[p + 2]
                    p = skip_value(t, p + 3)
                (st,) = struct.unpack_from(">H", data, p)
                p += 2
                for _ in range(st):
                    t = data[p + idsize]
                    p = skip_value(t, p + idsize + 1)
                (nf,) = struct.unpack_from(">H", data, p)
                p += 2
                fields = []
                for _ in range(nf):
                    fields.append((strings.get(rid(p), "?"), data[p + idsize]))
                    p += idsize + 1
                classes[cid] = (sup, fields)
            elif sub == 0x21:
                oid = rid(p)
                cid = rid(p + 4 + idsize)
                (n,) = struct.unpack_from(">I", data, p + 4 + 2 * idsize)
                q = p + 8 + 2 * idsize
                instances.append((oid, cid, q, q + n))
                p = q + n
            elif sub == 0x22:
                oid = rid(p)
                (n,) = struct.unpack_from(">I", data, p + 4 + idsize)
                cid = rid(p + 8 + idsize)
                q = p + 8 + 2 * idsize
                cname = names.get(cid, "?")
                if wanted:
                    obj_arrays.append((oid, cid, q, n))
                if cname in TABLE_CLASSES and n >= min_len:
                    used = sum(1 for i in range(n) if rid(q + i * idsize))
                    arrays[oid] = (cname, n, used)
                p = q + n * idsize
            elif sub == 0x23:
                (n,) = struct.unpack_from(">I", data, p + 4 + idsize)
                t = data[p + 8 + idsize]
                if wanted and t == 8 and "byte[]" in wanted:
                    byte_arrays[rid(p)] = n
                p += 9 + idsize + n * TYPE_SIZES[t]
            else:
                raise SystemExit(f"unknown heap dump sub-record {sub:#x} at {p - 1}")

    layouts = {}

    def layout(cid):
        if cid not in layouts:
            out = []
            c = cid
            while c in classes:
                out.extend(classes[c][1])
                c = classes[c][0]
            layouts[cid] = out
        return layouts[cid]

    def refs(inst):
        _, cid, q, _ = inst
        for name, t in layout(cid):
            if t == 2:
                yield name, rid(q)
            q = skip_value(t, q)

    holder_of_table = {}
    for inst in instances:
        for name, ref in refs(inst):
            if ref in arrays:
                holder_of_table[ref] = (inst[0], names.get(inst[1], "?"), name)
    maps = {h[0] for h in holder_of_table.values()}
    holders_of_map = defaultdict(list)
    for inst in instances:
        for name, ref in refs(inst):
            if ref in maps:
                holders_of_map[ref].append(f"{names.get(inst[1], '?')}.{name}")

    rows = []
    for aid, (cname, n, used) in arrays.items():
        mid, mclass, field = holder_of_table.get(aid, (0, "?", "?"))
        owners = holders_of_map.get(mid) or ["(array, static or root)"]
        rows.append((n * 4 + 16, n, used, mclass, ", ".join(sorted(set(owners))[:3])))
    rows.sort(reverse=True)
    print(f"{'bytes':>8} {'slots':>6} {'used':>5}  map  <- held by")
    for b, n, used, mclass, owners in rows:
        print(f"{b:>8} {n:>6} {used:>5}  {mclass}  <- {owners}")
    print(f"total {sum(r[0] for r in rows)} bytes in {len(rows)} tables of >= {min_len} slots")
    if not wanted:
        return
    targets = {inst[0]: names.get(inst[1], "?") for inst in instances if names.get(inst[1], "?") in wanted}
    sizes = defaultdict(int)
    for aid, n in byte_arrays.items():
        targets[aid] = "byte[]"
    holders = defaultdict(int)
    array_holder = {}
    for aid, cid, q, n in obj_arrays:
        for i in range(n):
            ref = rid(q + i * idsize)
            if ref in targets:
                holders[(targets[ref], names.get(cid, "?"))] += 1
                sizes[(targets[ref], names.get(cid, "?"))] += byte_arrays.get(ref, 0)
                array_holder[aid] = names.get(cid, "?")
    for inst in instances:
        for name, ref in refs(inst):
            if ref in targets:
                holders[(targets[ref], f"{names.get(inst[1], '?')}.{name}")] += 1
                sizes[(targets[ref], f"{names.get(inst[1], '?')}.{name}")] += byte_arrays.get(ref, 0)
    print()
    print("instances  (bytes of byte[])  class  <- held by (class.field or array)")
    for (cls, holder), count in sorted(holders.items(), key=lambda e: (-sizes[e[0]], -e[1]))[:60]:
        print(f"{count:>9}  {sizes[(cls, holder)] or '':>10}  {cls}  <- {holder}")


if __name__ == "__main__":
    main()
