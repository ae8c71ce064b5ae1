#!/usr/bin/env bash
# Runs the reference benchmark scenarios (scenarios/bench/bench-<id>.yaml, see the benchmarks README) as whole
# processes and prints a Markdown table for BENCHMARKS.md.
#
#   bench/run-scenarios.sh              # A, B and B2, 3 runs each
#   RUNS=5 bench/run-scenarios.sh B2    # selected ids (A, B, B2, B3), 5 runs each
#
# Per run: `java -jar rocelab-cli/target/rocelab.jar run <file> --out <tmp> -q`, timed by /usr/bin/time
# (wall seconds %e, peak resident set %M KiB; JVM start included). Reported: the median wall time of the runs,
# the highest peak RSS, and from the run's summary.json simulated_seconds, data_packets and events (which must be
# the same in every run: the simulator is deterministic). B3 takes minutes and gigabytes: ask for it explicitly.
# Environment: RUNS (default 3), ROCELAB_JAVA_OPTS (extra JVM options, e.g. -Xmx8g), VIA_LAUNCHER=1 (time
# `./rocelab run ...` instead, i.e. with the launcher's own JVM options), TIME_BIN (default /usr/bin/time; when it
# is missing, wall time comes from bash and peak RSS from polling VmHWM, marked "~").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/rocelab-cli/target/rocelab.jar"
runs="${RUNS:-3}"
time_bin="${TIME_BIN:-/usr/bin/time}"
if [ "${VIA_LAUNCHER:-0}" = 1 ]; then
  cmd=("$root/rocelab")                                  # exec's java, so time and VmHWM see the JVM itself
else
  cmd=(java ${ROCELAB_JAVA_OPTS:-} -jar "$jar")
fi

# Data packets each reference scenario must send (the benchmarks README).
expected_packets() {
  case "$1" in
    A) echo 16000 ;;
    B) echo 128000 ;;
    B2) echo 1072896 ;;
    B3) echo 16256000 ;;
    *) echo "" ;;
  esac
}

ids=("$@")
[ ${#ids[@]} -eq 0 ] && ids=(A B B2)
for id in "${ids[@]}"; do
  [ -n "$(expected_packets "$id")" ] || { echo "run-scenarios: unknown id '$id'; expected A, B, B2 or B3" >&2; exit 2; }
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "run-scenarios: RUNS='$runs'; expected a whole number >= 1" >&2; exit 2; }

# Builds the CLI jar when it is missing or older than the sources (the launcher's own check).
"$root/rocelab" --version >/dev/null

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# summary.json is written by Jackson's pretty printer: one "key" : value per line; top-level keys are unique.
json_number() { # file key
  sed -n 's/^[[:space:]]*"'"$2"'"[[:space:]]*:[[:space:]]*\([-0-9.eE+]*\).*$/\1/p' "$1" | head -n 1
}

median() { # numbers...
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Runs one simulation; prints "<wall seconds> <peak RSS KiB>".
timed_run() { # scenario-file out-dir stderr-file
  local file="$1" out="$2" err="$3"
  if [ -x "$time_bin" ]; then
    local t="$tmp/time.txt"
    if ! "$time_bin" -f '%e %M' -o "$t" "${cmd[@]}" run "$file" --out "$out" -q 2>"$err"; then
      return 1
    fi
    tail -n 1 "$t"
  else
    # Fallback: bash's clock for the wall time; VmHWM (the kernel's peak RSS) polled until the process ends.
    local start end pid hwm=0 v status
    start=$(date +%s.%N)
    "${cmd[@]}" run "$file" --out "$out" -q 2>"$err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
      [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
      sleep 0.02
    done
    status=0
    wait "$pid" || status=$?
    end=$(date +%s.%N)
    [ "$status" -eq 0 ] || return 1
    awk -v s="$start" -v e="$end" -v m="$hwm" 'BEGIN { printf "%.2f ~%d\n", e - s, m }'
  fi
}

echo "| id | wall s (median of $runs, JVM start included) | peak RSS MiB | simulated time of last completion (us) | data packets | data packets per wall-second | events per wall-second |"
echo "|---|---|---|---|---|---|---|"
warnings=()
failed=0
for id in "${ids[@]}"; do
  file="scenarios/bench/bench-$id.yaml"
  [ -f "$root/$file" ] || { echo "run-scenarios: $file not found" >&2; failed=1; continue; }
  walls=()
  rss_max=0
  approx=""
  sim_s="" packets="" events=""
  ok=1
  for ((i = 1; i <= runs; i++)); do
    out="$tmp/$id-$i"
    err="$tmp/$id-$i.err"
    if ! measured="$(cd "$root" && timed_run "$file" "$out" "$err")"; then
      echo "run-scenarios: $id run $i failed:" >&2
      cat "$err" >&2
      ok=0
      break
    fi
    read -r wall rss <<<"$measured"
    [[ "$rss" == \~* ]] && approx="~" && rss="${rss#\~}"
    walls+=("$wall")
    [ "$rss" -gt "$rss_max" ] && rss_max=$rss
    s="$out/summary.json"
    r_sim=$(json_number "$s" simulated_seconds)
    r_packets=$(json_number "$s" data_packets)
    r_events=$(json_number "$s" events)
    if [ -z "$r_sim" ] || [ -z "$r_packets" ] || [ -z "$r_events" ]; then
      echo "run-scenarios: $id run $i: $s lacks simulated_seconds, data_packets or events" >&2
      ok=0
      break
    fi
    if [ -n "$packets" ] && [ "$r_sim $r_packets $r_events" != "$sim_s $packets $events" ]; then
      warnings+=("$id: run $i differs from run 1 (simulated_seconds, data_packets, events: $r_sim $r_packets $r_events vs $sim_s $packets $events); the simulator should be deterministic")
    fi
    sim_s=$r_sim packets=$r_packets events=$r_events
    rm -rf "$out"
  done
  if [ "$ok" -ne 1 ]; then
    echo "| $id | failed | | | | | |"
    failed=1
    continue
  fi
  expected=$(expected_packets "$id")
  if [ "$packets" != "$expected" ]; then
    warnings+=("$id: summary.json has data_packets $packets; the benchmarks README expects $expected")
  fi
  wall=$(median "${walls[@]}")
  awk -v id="$id" -v w="$wall" -v rss="$rss_max" -v ap="$approx" -v s="$sim_s" -v p="$packets" -v e="$events" 'BEGIN {
    printf "| %s | %.2f | %s%.0f | %.3f | %d | %.0f | %.0f |\n", id, w, ap, rss / 1024, s * 1e6, p, (w > 0 ? p / w : 0), (w > 0 ? e / w : 0)
  }'
done
for w in ${warnings[@]+"${warnings[@]}"}; do
  echo "WARNING: $w" >&2
done
exit "$failed"
