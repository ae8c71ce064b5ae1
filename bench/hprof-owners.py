#!/usr/bin/env python3
"""Who holds a heap's primitive arrays: each array of a heap dump (HPROF, 8-byte ids) with at least min_elements
elements is put to the field of the object (or class) that references it first; an array held through an object
array goes to the field holding that object array. Prints the fields holding the most, by megabytes.

Made for the 1,024-host all-to-all's heap (BENCHMARKS.md): a dump at out-of-memory
(ROCELAB_JAVA_OPTS="-Xmx1800m -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=F.hprof") or at a simulated time
(java -Drocelab.bench.heapDump=F.hprof -cp rocelab-bench/target/benchmarks.jar rocelab.bench.ScaleProfile S.yaml
--histogram-at-us T --until-us T2). A 1.8 GB dump takes about 20 s.

Usage: bench/hprof-owners.py DUMP [min_elements]"""
import mmap, struct, sys, collections

path = sys.argv[1]
MIN = int(sys.argv[2]) if len(sys.argv) > 2 else 0
f = open(path, 'rb')
m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
end = m.find(b'\0')
idsize = struct.unpack_from('>I', m, end + 1)[0]
assert idsize == 8
pos = end + 1 + 4 + 8
SIZES = {2: 8, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
TNAME = {4: 'boolean', 5: 'char', 6: 'float', 7: 'double', 8: 'byte', 9: 'short', 10: 'int', 11: 'long'}
strings = {}
classname = {}  # class obj id -> name
classes = {}  # class id -> (super, [(name, type)])
arrays = {}  # array id -> (type, n)
objarrays = {}  # objarray id -> class id
arrayclass_count = collections.Counter()
Q = struct.Struct('>Q')
I = struct.Struct('>I')


def segments():
    p = pos
    n = len(m)
    while p < n:
        tag = m[p]
        length = I.unpack_from(m, p + 5)[0]
        body = p + 9
        yield tag, body, length
        p = body + length


def walk_heap(body, length, visit):
    p = body
    e = body + length
    while p < e:
        st = m[p]
        p += 1
        if st == 0xFF or st == 0x05 or st == 0x07:
            p += 8
        elif st == 0x01:
            p += 16
        elif st == 0x02 or st == 0x03 or st == 0x08:
            p += 16
        elif st == 0x04 or st == 0x06:
            p += 12
        elif st == 0x20:
            cid = Q.unpack_from(m, p)[0]
            sup = Q.unpack_from(m, p + 12)[0]
            q = p + 8 + 4 + 8 * 6 + 4
            ncp = struct.unpack_from('>H', m, q)[0]
            q += 2
            for _ in range(ncp):
                t = m[q + 2]
                q += 3 + SIZES[t]
            ns = struct.unpack_from('>H', m, q)[0]
            q += 2
            statics = []
            for _ in range(ns):
                name = Q.unpack_from(m, q)[0]
                t = m[q + 8]
                if t == 2:
                    statics.append((name, Q.unpack_from(m, q + 9)[0]))
                q += 9 + SIZES[t]
            nf = struct.unpack_from('>H', m, q)[0]
            q += 2
            fields = []
            for _ in range(nf):
                name = Q.unpack_from(m, q)[0]
                t = m[q + 8]
                fields.append((name, t))
                q += 9
            visit('class', cid, (sup, fields, statics))
            p = q
        elif st == 0x21:
            oid = Q.unpack_from(m, p)[0]
            cid = Q.unpack_from(m, p + 12)[0]
            nb = I.unpack_from(m, p + 20)[0]
            visit('inst', oid, (cid, p + 24, nb))
            p += 24 + nb
        elif st == 0x22:
            oid = Q.unpack_from(m, p)[0]
            n = I.unpack_from(m, p + 12)[0]
            acid = Q.unpack_from(m, p + 16)[0]
            visit('objarr', oid, (acid, p + 24, n))
            p += 24 + 8 * n
        elif st == 0x23:
            oid = Q.unpack_from(m, p)[0]
            n = I.unpack_from(m, p + 12)[0]
            t = m[p + 16]
            visit('prim', oid, (t, n))
            p += 17 + n * SIZES[t]
        else:
            raise Exception('unknown subtag %x at %d' % (st, p))


# pass 1
def v1(kind, oid, data):
    if kind == 'class':
        classes[oid] = data
    elif kind == 'prim':
        t, n = data
        if n >= MIN and t in (10, 11, 4, 8, 7, 6, 9, 5):
            arrays[oid] = data
    elif kind == 'objarr':
        objarrays[oid] = data[0]


for tag, body, length in segments():
    if tag == 0x01:
        sid = Q.unpack_from(m, body)[0]
        strings[sid] = m[body + 8: body + length].decode('utf-8', 'replace')
    elif tag == 0x02:
        cid = Q.unpack_from(m, body + 4)[0]
        nid = Q.unpack_from(m, body + 16)[0]
        classname[cid] = nid
    elif tag in (0x0C, 0x1C):
        walk_heap(body, length, v1)


def cname(cid):
    return strings.get(classname.get(cid), '?%x' % cid)


layout_cache = {}


def layout(cid):
    if cid in layout_cache:
        return layout_cache[cid]
    out = []
    c = cid
    while c and c in classes:
        sup, fields, _ = classes[c]
        for name, t in fields:
            out.append((cname(c) + '.' + strings.get(name, '?'), t))
        c = sup
    layout_cache[cid] = out
    return out


owner_bytes = collections.Counter()
owner_count = collections.Counter()
owned = set()
# array owned via object arrays: objarray id -> list of prim ids
via = {}


def v2(kind, oid, data):
    if kind == 'inst':
        cid, p, nb = data
        q = p
        for fname, t in layout(cid):
            if t == 2:
                ref = Q.unpack_from(m, q)[0]
                if ref in arrays and ref not in owned:
                    owned.add(ref)
                    at, n = arrays[ref]
                    owner_bytes[(fname, TNAME[at])] += n * SIZES[at] + 16
                    owner_count[(fname, TNAME[at])] += 1
                elif ref in objarrays:
                    via.setdefault(ref, []).append(fname)
            q += SIZES[t]
    elif kind == 'objarr':
        acid, p, n = data
        for i in range(n):
            ref = Q.unpack_from(m, p + 8 * i)[0]
            if ref in arrays and ref not in owned:
                owned.add(ref)
                at, k = arrays[ref]
                key = ('objarr@%x' % oid, TNAME[at])
                owner_bytes[key] += k * SIZES[at] + 16
                owner_count[key] += 1


for tag, body, length in segments():
    if tag in (0x0C, 0x1C):
        walk_heap(body, length, v2)

# statics
for cid, (sup, fields, statics) in classes.items():
    for name, ref in statics:
        if ref in arrays and ref not in owned:
            owned.add(ref)
            at, n = arrays[ref]
            owner_bytes[(cname(cid) + '.static ' + strings.get(name, '?'), TNAME[at])] += n * SIZES[at] + 16
        elif ref in objarrays:
            via.setdefault(ref, []).append(cname(cid) + '.static ' + strings.get(name, '?'))

# fold object-array owners into their holders
folded_b = collections.Counter()
folded_c = collections.Counter()
for (k, t), b in owner_bytes.items():
    if k.startswith('objarr@'):
        oid = int(k[7:], 16)
        holders = via.get(oid, ['(unknown holder of %s)' % cname(objarrays.get(oid, 0))])
        k = holders[0] + '[]'
    folded_b[(k, t)] += b
    folded_c[(k, t)] += owner_count[(k, t)] if not k.endswith('[]') else 1
unowned = collections.Counter()
for a, (t, n) in arrays.items():
    if a not in owned:
        unowned[TNAME[t]] += n * SIZES[t] + 16
total = sum(folded_b.values())
print('owned arrays: %.1f MB; unowned by type: %s' % (total / 1e6, {k: round(v / 1e6, 1) for k, v in unowned.items()}))
for (k, t), b in folded_b.most_common(45):
    print('%10.1f MB  %-7s %s' % (b / 1e6, t, k))
