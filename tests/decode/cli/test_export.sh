#!/bin/bash
# logdev export (json, csv, perfetto) and logdev hist / diff --svg on the
# committed golden captures, checked with real parsers (python3's json, csv
# and xml.etree; xmllint where installed; no network):
# - every capture: json lines, csv and perfetto parse; one row per record
#   and per lost-events gap, the same as report --raw (ts, cpu, pid, ctx,
#   site, func, line, message where report's is unescaped, LOST kind/count);
# - perfetto: trace-event structure (ph M/i/X, pid 1, tid = cpu + 1, ts in
#   us = ts_ns / 1000), X slices = the durations deltas --durations pairs;
# - hist: its log2 bucket counts equal those made from export's delta_ns of
#   the same pair (the previous record of the same CPU and context), and its
#   SVG is well-formed XML with one bar per non-empty bucket.
#   tests/decode/cli/test_export.sh LOGDEV GOLDEN-CAP-DIR
set -uo pipefail
logdev=$(realpath -e "$1") || { echo "FAIL: export: no logdev at $1"; exit 1; }
capdir=$(realpath -e "$2") || { echo "FAIL: export: no capture dir $2"; exit 1; }
tmp=$(mktemp -d /tmp/logdev-export.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: export: $1"; }
fail() { echo "FAIL: export: $1"; failed=$((failed + 1)); }

command -v python3 >/dev/null || { fail "python3 is needed to parse the outputs"; exit 1; }
for gz in "$capdir"/*.cap.gz; do
	gzip -dc "$gz" > "$tmp/$(basename "$gz" .gz)"
done

cd "$tmp" || exit 1
for cap in *.cap; do
	rcs=
	for f in json csv perfetto; do
		"$logdev" export --format "$f" -o "$cap.$f" "$cap" 2>"$cap.$f.err"
		rcs="$rcs $?"
	done
	"$logdev" report --raw "$cap" > "$cap.raw" 2>/dev/null
	case "$rcs" in
	*1*|*2*) fail "$cap: export exit statuses$rcs (want 0 or 3)"; continue ;;
	esac
	python3 - "$cap" <<'EOF'
import csv, json, sys
cap = sys.argv[1]
fails = []
def check(ok, what):
    print(("PASS: export: %s: %s" if ok else "FAIL: export: %s: %s") % (cap, what))
    if not ok:
        fails.append(what)

# report --raw: records (not comm) and LOST lines, in order
raw = []
for line in open(cap + ".raw", encoding="utf-8", errors="surrogateescape"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "LOST":
        raw.append(("lost", int(f[1]), int(f[2]), f[3]))
    elif f[5] != "<comm>":
        raw.append(("rec", int(f[0]), int(f[1]), int(f[2]), f[3], int(f[4]), f[5], int(f[6]), f[7]))

rows = [json.loads(l) for l in open(cap + ".json", encoding="utf-8")]
check(len(rows) == len(raw), "json: one line per record and gap (%d, report --raw %d)" % (len(rows), len(raw)))
with open(cap + ".csv", newline="", encoding="utf-8") as fh:
    crow = list(csv.DictReader(fh))
check(len(crow) == len(raw), "csv: one row per record and gap (%d)" % len(crow))
cols = "ts_ns cpu pid comm ctx site_id func file line type message delta_ns duration_ns lost_kind lost_count clock".split()
with open(cap + ".csv", newline="", encoding="utf-8") as fh:
    check(next(csv.reader(fh)) == cols, "csv: header names the documented columns")
missing = [(i, sorted(set(cols) - set(j))) for i, j in enumerate(rows) if set(j) != set(cols)]
check(not missing, "json: every row has every documented key, null where it has no value" +
      ("" if not missing else ": row %d lacks %s" % missing[0]))

bad = None
for i, (j, c, r) in enumerate(zip(rows, crow, raw)):
    if r[0] == "lost":
        ok = (j["type"] == "lost" and j["cpu"] == r[1] and j["lost_count"] == r[2] and
              j["lost_kind"] == r[3] and c["type"] == "lost" and int(c["lost_count"]) == r[2])
    else:
        _, ts, cpu, pid, ctx, site, func, line, msg = r
        ok = (j["ts_ns"] == ts and j["cpu"] == cpu and j["pid"] == pid and j["ctx"] == ctx and
              j["site_id"] == site and j["line"] == line and
              int(c["ts_ns"]) == ts and int(c["cpu"]) == cpu and int(c["pid"]) == pid and
              c["ctx"] == ctx and int(c["site_id"]) == site and int(c["line"]) == line and
              c["message"] == j["message"].replace("\0", "\ufffd"))
        # report --raw escapes; where it shows no escape the texts are equal
        if ok and "\\" not in msg and "\\" not in func and " duration=" not in msg:
            ok = j["message"] == msg and j["func"] == func
    if not ok:
        bad = (i, j, r)
        break
check(bad is None, "json and csv rows equal report --raw's values" + ("" if bad is None else ": row %d %r vs %r" % bad))

# perfetto (Chrome trace-event JSON)
d = json.load(open(cap + ".perfetto", encoding="utf-8"))
ev = d.get("traceEvents")
check(isinstance(ev, list) and d.get("displayTimeUnit") == "ns", "perfetto: {displayTimeUnit, traceEvents[]}")
ev = ev or []
check(all(e.get("ph") in ("M", "i", "X") and e.get("pid") == 1 for e in ev), "perfetto: phases M, i, X in process 1")
inst = [e for e in ev if e["ph"] == "i"]
recs = [e for e in inst if e.get("cat") == "record"]
lost = [e for e in inst if e.get("cat") == "lost"]
check(len(recs) == sum(1 for r in raw if r[0] == "rec"), "perfetto: one instant per record (%d)" % len(recs))
check(len(lost) == sum(1 for r in raw if r[0] == "lost"), "perfetto: one LOST marker per gap (%d)" % len(lost))
rr = [r for r in raw if r[0] == "rec"]
ok = all(abs(e["ts"] * 1000 - r[1]) < 0.5 and e["tid"] == r[2] + 1 and e["args"]["pid"] == r[3]
         and e["s"] == "t" for e, r in zip(recs, rr))
check(ok, "perfetto: instants' ts (us) = ts_ns / 1000, tid = cpu + 1, pid in args")
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
check(all(names.get(e["tid"]) == "CPU %d" % (e["tid"] - 1) for e in inst), "perfetto: every track named CPU N")
xs = [e for e in ev if e["ph"] == "X"]
check(all(e["dur"] >= 0 and e["tid"] >= 1 for e in xs), "perfetto: slices have dur >= 0")
durs = sorted(round(r["duration_ns"]) for r in rows if r.get("duration_ns") is not None and r["duration_ns"] >= 0)
check(sorted(round(e["dur"] * 1000) for e in xs) == durs, "perfetto: one slice per paired duration (%d), dur = duration_ns" % len(xs))
sys.exit(1 if fails else 0)
EOF
	[ $? = 0 ] || failed=$((failed + 1))
done

# durations: the slices are the pairs of deltas --durations (probes.cap: 1020)
n=$(python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"]=="X"))' probes.cap.perfetto)
[ "$n" = 1020 ] && pass "probes.cap: 1020 slices, as deltas --durations pairs" || fail "probes.cap: $n slices, want 1020"
"$logdev" export --format perfetto --pair lt_probe_work_write:533,lt_probe_work_write:543 probes.cap > pair.json 2>/dev/null
want=$("$logdev" deltas --pair lt_probe_work_write:533,lt_probe_work_write:543 probes.cap | awk '$1 == "lt_probe_work_write:533" { print $3 }')
n=$(python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"]=="X" and e["name"]=="lt_probe_work_write:533"))' pair.json)
[ -n "$want" ] && [ "$n" = "$want" ] && pass "--pair FROM,TO: $n slices named FROM, as deltas --pair counts" || fail "--pair: $n slices, deltas --pair counts '$want'"
"$logdev" export --format csv --pair nosuch:1,x:2 probes.cap >/dev/null 2>&1
[ $? = 2 ] && pass "--pair with an unknown label: exit 2" || fail "--pair with an unknown label: not exit 2"
"$logdev" export probes.cap >/dev/null 2>&1
[ $? = 2 ] && pass "no --format: exit 2" || fail "no --format: not exit 2"
"$logdev" export --format yaml probes.cap >/dev/null 2>&1
[ $? = 2 ] && pass "--format yaml: exit 2" || fail "--format yaml: not exit 2"
"$logdev" export --format csv -o /nonexistent/dir/x.csv probes.cap >/dev/null 2>&1
[ $? = 1 ] && pass "-o into a missing directory: exit 1" || fail "-o into a missing directory: not exit 1"

# hist: log2 counts against export's deltas of the same pair (by context)
check_hist() {	# CAP FROM_FUNC FROM_LINE TO_FUNC TO_LINE
	local cap=$1
	"$logdev" hist --svg "$cap.svg" "$2:$3" "$4:$5" "$cap" > "$cap.hist" 2>/dev/null
	python3 - "$cap" "$2" "$3" "$4" "$5" <<'EOF'
import json, sys, re
import xml.etree.ElementTree as ET
cap, ff, fl, tf, tl = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
prev = {}
want = {}
n = 0
for l in open(cap + ".json"):
    r = json.loads(l)
    if r["type"] == "lost":
        for k in [k for k in prev if k[0] == r["cpu"]]:
            del prev[k]
        continue
    key = (r["cpu"], r["ctx"])
    p = prev.get(key)
    if p and r["delta_ns"] is not None and p == (ff, fl) and (r["func"], r["line"]) == (tf, tl):
        d = r["delta_ns"]
        k = d.bit_length()
        want[k] = want.get(k, 0) + 1
        n += 1
    prev[key] = (r["func"], r["line"])
def label(k):
    def p2(e):
        return "%d%s" % (1 << (e % 10), "KMGTPE"[e // 10 - 1]) if e >= 10 else str(1 << e)
    return "[0]" if k == 0 else "[1]" if k == 1 else "[%s, %s)" % (p2(k - 1), p2(k))
got = {}
for line in open(cap + ".hist"):
    m = re.match(r"^(\[[^\]]*[\])])\s+(\d+) \|[@ ]{40}\|$", line.rstrip("\n"))
    if m:
        got[m.group(1)] = int(m.group(2))
w = {label(k): c for k, c in want.items()}
ok = n > 0 and all(got.get(k) == c for k, c in w.items()) and sum(got.values()) == n
print(("PASS" if ok else "FAIL") + ": export: hist %s %s:%d -> %s:%d: log2 counts equal export's deltas (%d)%s"
      % (cap, ff, fl, tf, tl, n, "" if ok else ": want %r got %r" % (w, got)))
t = ET.parse(cap + ".svg").getroot()
ns = "{http://www.w3.org/2000/svg}"
bars = [e for e in t.iter(ns + "rect") if e.find(ns + "title") is not None]
texts = " ".join("".join(e.itertext()) for e in t.iter(ns + "text"))
ok2 = (len(bars) == len([c for c in got.values() if c]) and "count (pairs)" in texts and
       "time, ns" in texts and "%s:%d -> %s:%d" % (ff, fl, tf, tl) in texts and "count %d" % n in texts)
print(("PASS" if ok2 else "FAIL") + ": export: hist --svg %s: well-formed XML, one bar per non-empty bucket, axes, title and count" % cap)
sys.exit(0 if ok and ok2 else 1)
EOF
	[ $? = 0 ] || failed=$((failed + 1))
}
check_hist demo.cap demo_skb 117 demo_skb 119
check_hist demo.cap demo_mmap_touch 162 demo_mmap_touch 164
check_hist ctx-overwrite.cap lt_record 93 lt_record 91

# a pair cut by lost events: its mark and footnote in the text, its meaning in the SVG legend
"$logdev" hist --pair 1 --svg cut.svg ctx-overwrite.cap > cut.out 2>/dev/null
grep -q ' deltas !~$' cut.out && grep -q '^! lost events: 4 gaps' cut.out &&
	grep -q '(! pairs cut by lost events: count may be short)' cut.svg &&
	pass "hist of a cut pair: mark ! and footnote in the text, the note in the SVG legend" ||
	fail "hist of a cut pair: mark, footnote or SVG note missing"
if command -v xmllint >/dev/null; then
	xmllint --noout demo.cap.svg 2>/dev/null && pass "xmllint reads hist's SVG" || fail "xmllint rejects hist's SVG"
fi
"$logdev" diff --svg d.svg --pair 1 demo.cap demo-half.cap > d.out 2>/dev/null
python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse("d.svg").getroot(); ns = "{http://www.w3.org/2000/svg}"
fills = {e.get("fill") for e in t.iter(ns + "rect") if e.find(ns + "title") is not None}
txt = " ".join("".join(e.itertext()) for e in t.iter(ns + "text"))
sys.exit(0 if len(fills) == 2 and "A: demo.cap" in txt and "B: demo-half.cap" in txt else 1)' &&
	grep -q '^A: demo.cap: 200 deltas' d.out && grep -q '^B: demo-half.cap: 102 deltas' d.out &&
	pass "diff --svg --pair 1: two colours, legend A and B, counts on stdout" ||
	fail "diff --svg --pair 1: chart or summary wrong"
"$logdev" hist --pair 99 demo.cap >/dev/null 2>&1
[ $? = 2 ] && pass "hist --pair past the table: exit 2 (usage)" || fail "hist --pair 99: not exit 2"
"$logdev" hist nosuch:1 demo_skb:119 demo.cap >/dev/null 2>&1
[ $? = 2 ] && pass "hist with an unknown label: exit 2" || fail "hist unknown label: not exit 2"
"$logdev" hist --pair 0 demo.cap >/dev/null 2>&1
[ $? = 2 ] && pass "hist --pair 0: exit 2" || fail "hist --pair 0: not exit 2"
# the filters (filter.c) apply to export and hist as to every verb
"$logdev" export --format csv --cpu 1 ctx-overwrite.cap > f1.csv 2>/dev/null
"$logdev" report --raw --cpu 1 ctx-overwrite.cap > f1.raw 2>/dev/null
python3 -c '
import csv, sys
rows = list(csv.DictReader(open("f1.csv", newline="")))
raw = [l for l in open("f1.raw") if l.strip()]
sys.exit(0 if rows and all(r["cpu"] == "1" for r in rows) and len(rows) == len(raw) else 1)' &&
	pass "export --cpu 1: only CPU 1, as many rows as report --raw --cpu 1" ||
	fail "export --cpu 1: rows of other CPUs or a count unlike report's"
"$logdev" hist --site 'demo_skb:*' demo_skb:117 demo_skb:119 demo.cap > fs.out 2>/dev/null &&
	"$logdev" hist --site 'demo_kfree*' demo_skb:117 demo_skb:119 demo.cap > fk.out 2>&1
[ $? = 2 ] && grep -q '200 deltas' fs.out &&
	pass "hist --site: the pair kept when both ends pass, gone when they do not" ||
	fail "hist --site: filter not applied"
"$logdev" hist --cpu x demo_skb:117 demo_skb:119 demo.cap > /dev/null 2>&1
[ $? = 2 ] && pass "hist --cpu x: usage error" || fail "hist --cpu x: not exit 2"
[ $failed = 0 ]
