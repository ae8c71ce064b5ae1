#!/usr/bin/env bash
# Where a whole `rocelab run` process spends its time, phase by phase, for two or more jars run interleaved (the
# order reversed every other round, so that a change in the machine's load hits all of them).
#
#   bench/phases-ab.sh ROUNDS SCENARIO|demo TAG=JAR[|JVM OPTIONS] ... [-- RUN FLAGS]
#   bench/phases-ab.sh 6 scenarios/bench/bench-B.yaml old=/tmp/old.jar new=rocelab-cli/target/rocelab.jar -- -q
#   bench/phases-ab.sh 6 demo old=/tmp/old.jar "nopd=/tmp/old.jar|-XX:-UsePerfData"
#
# Each jar must know `run --timing` (hidden; since commit b9ae8d8). Per run: the process's wall and CPU time (user +
# sys, /usr/bin/time), the loop's wall time (summary.json wall_seconds), the JVM's start before main and its exit
# after the command (the wall clock before and after the process against the instants --timing prints), and each
# phase's wall and process CPU time (all threads; /proc's 10 ms ticks). Prints the median and the minimum of each
# figure per jar; the runs go to $OUT (default: a temporary file) as JSON lines.
set -euo pipefail
rounds=$1
scen=$2
shift 2
[ "$scen" = demo ] && scen=""
jars=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do jars+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="${OUT:-$work/runs.jsonl}"

one() { # TAG JAR OPTS FLAGS...
  local tag=$1 jar=$2 opts=$3
  shift 3
  local dir="$work/out-$tag"
  rm -rf "$dir"
  local t0 t1
  t0=$(date +%s%N)
  # shellcheck disable=SC2086 # the options are words
  /usr/bin/time -f "TIME %e %U %S %M" -o "$work/time" java -XX:+UseSerialGC $opts -jar "$jar" run ${scen:+"$scen"} \
    --out "$dir" --timing "$@" >"$work/stdout" 2>"$work/stderr"
  t1=$(date +%s%N)
  python3 - "$tag" "$t0" "$t1" "$work/stderr" "$work/time" "$dir/summary.json" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import datetime, json, re, sys
tag, t0, t1, err, tm, summary, load = sys.argv[1:]
def ns(s):
    a, _, b = s.rstrip('Z').partition('.')
    d = datetime.datetime.strptime(a, '%Y-%m-%dT%H:%M:%S').replace(tzinfo=datetime.timezone.utc)
    return int(d.timestamp()) * 10**9 + int((b + '000000000')[:9])
row = {'tag': tag, 'load': float(load)}
for line in open(err):
    m = re.match(r'timing    (\S.*?)\s+([0-9.]+)\s+([0-9.]+)', line)
    if m:
        key = m.group(1).strip().replace(' ', '_')
        row[key + '_wall_ms'], row[key + '_cpu_ms'] = float(m.group(2)), float(m.group(3))
    m = re.search(r'main entered at (\S+), ended at (\S+)', line)
    if m:
        row['jvm_start_ms'] = (ns(m.group(1)) - int(t0)) / 1e6
        row['jvm_exit_ms'] = (int(t1) - ns(m.group(2))) / 1e6
t = open(tm).read().split()
i = t.index('TIME')
row.update(process_wall_s=float(t[i + 1]), process_cpu_s=float(t[i + 2]) + float(t[i + 3]), rss_mib=int(t[i + 4]) // 1024)
try:
    row['loop_s'] = json.load(open(summary))['wall_seconds']
except (OSError, ValueError, KeyError):
    pass
print(json.dumps(row))
PY
}

for r in $(seq 1 "$rounds"); do
  order=("${jars[@]}")
  if [ $((r % 2)) = 1 ]; then
    order=()
    for ((i = ${#jars[@]} - 1; i >= 0; i--)); do order+=("${jars[$i]}"); done
  fi
  for spec in "${order[@]}"; do
    tag=${spec%%=*}
    jar=${spec#*=}
    opts=""
    case "$jar" in *"|"*) opts=${jar#*|}; jar=${jar%%|*} ;; esac
    one "$tag" "$jar" "$opts" "$@" >>"$out"
  done
done

python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
tags = list(dict.fromkeys(r['tag'] for r in rows))
keys = list(dict.fromkeys(k for r in rows for k in r if k not in ('tag', 'load')))
print('load average %.1f-%.1f; median / min of %d rounds' % (min(r['load'] for r in rows),
      max(r['load'] for r in rows), len(rows) // len(tags)))
print('%-32s' % 'figure' + ''.join('%22s' % t for t in tags))
for k in keys:
    cells = []
    for t in tags:
        v = [r[k] for r in rows if r['tag'] == t and k in r]
        cells.append('%22s' % ('%.3f / %.3f' % (statistics.median(v), min(v)) if v else '-'))
    print('%-32s' % k + ''.join(cells))
PY
