#!/usr/bin/env bash
# Interleaved runs for issue 16's --threads: scenario SCENARIO on jar A (one thread) and jar B (one and two threads),
# alternating, ROUNDS times. Prints per run: label, wall seconds of the process, user+system CPU seconds, the loop's
# wall seconds (summary.json) and the parallel line (partitions, windows, events per window, imbalance, crossings).
#   bench/threads-ab.sh A.jar B.jar scenarios/bench/bench-B2.yaml 5 [threads-list, default "1 2"]
set -euo pipefail
a="$1"; b="$2"; scenario="$3"; rounds="${4:-5}"; threads="${5:-1 2}"
out="$(mktemp -d)"
run() { # label jar threads
  local label="$1" jar="$2" t="$3" dir="$out/$1"
  local flag=""; [ "$t" != "-" ] && flag="--threads $t"
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$out/time" java -XX:+UseSerialGC -Xmx${XMX:-3g} -jar "$jar" run "$scenario" --out "$dir" $flag -q > /dev/null
  end=$(date +%s.%N)
  local cpu; cpu=$(awk '{print $1 + $2}' "$out/time")
  local loop; loop=$(grep -o '"wall_seconds": [0-9.]*' "$dir/summary.json" | awk '{print $2}')
  printf '%-10s wall %7.2f s  cpu %7.2f s  loop %7.2f s\n' "$label" "$(echo "$end - $start" | bc)" "$cpu" "$loop"
}
for i in $(seq 1 "$rounds"); do
  [ "$a" != "-" ] && run "A-1" "$a" "-"
  for t in $threads; do run "B-$t" "$b" "$t"; done
done
# The deterministic figures of a partitioned run (the same on any machine).
java -XX:+UseSerialGC -Xmx${XMX:-3g} -jar "$b" run "$scenario" --out "$out/det" --threads 2 | grep '^parallel' || true
for t in $threads; do cmp <(grep -v wall_seconds "$out/B-1/summary.json" | grep -v events_per_second) \
  <(grep -v wall_seconds "$out/B-$t/summary.json" | grep -v events_per_second) && echo "summary.json B-1 = B-$t"; done
rm -rf "$out"
