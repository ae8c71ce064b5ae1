#!/usr/bin/env bash
# Runs scenarios at packet level and flow level (`./rocelab run FILE --model packet|flow -q`) and prints a Markdown
# table of their differences for BENCHMARKS.md: median and p99 FCT, each collective's time, each job's JCT,
# and both runs' wall_seconds (the run itself, no JVM start).
#
#   bench/cross-check.sh                       # the default set below
#   bench/cross-check.sh scenarios/bench/bench-B.yaml ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(scenarios/bench/bench-B.yaml scenarios/bench/bench-B2.yaml scenarios/bench/cross/allreduce-ring.yaml
         scenarios/bench/cross/allreduce-tree.yaml scenarios/bench/cross/alltoall.yaml
         scenarios/examples/ring-allreduce.yaml scenarios/examples/train-3d-rail.yaml
         scenarios/examples/moe-alltoall.yaml)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "| scenario | figure | packet | flow | flow / packet |"
echo "|---|---|---|---|---|"
for f in "${files[@]}"; do
  name="$(basename "$f" .yaml)"
  for model in packet flow; do
    "$root/rocelab" run "$root/$f" --model "$model" --out "$tmp/$name-$model" -q
  done
  python3 - "$name" "$tmp/$name-packet/summary.json" "$tmp/$name-flow/summary.json" <<'PY'
import json, sys
name, p, f = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rows = []
def row(label, a, b, unit):
    if a is None or b is None:
        return
    rows.append(f"| {name} | {label} | {a:,.1f} {unit} | {b:,.1f} {unit} | {b / a:.3f} |")
row("median FCT", p["flows"]["fct_us"]["p50"], f["flows"]["fct_us"]["p50"], "us")
row("p99 FCT", p["flows"]["fct_us"]["p99"], f["flows"]["fct_us"]["p99"], "us")
for a, b in zip(p.get("collectives", []), f.get("collectives", [])):
    if not a["name"].startswith("traffic item"):
        continue   # a job's collectives: the JCT row below sums them up
    row(f"{a['name']} ({a['algorithm']}) time", a["time_us"], b["time_us"], "us")
for a, b in zip(p.get("jobs", []), f.get("jobs", [])):
    row(f"job {a['job']} JCT", a["jct_us"], b["jct_us"], "us")
row("wall time", p["wall_seconds"], f["wall_seconds"], "s")
print("\n".join(rows))
PY
done
