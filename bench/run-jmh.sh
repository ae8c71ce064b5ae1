#!/usr/bin/env bash
# Builds rocelab-bench (and the modules it needs) and runs its JMH benchmarks with short settings and the GC
# profiler. Short on purpose: the machine is small and shared; for publishable figures raise -wi/-i/-f.
#
#   bench/run-jmh.sh                       # all benchmarks
#   bench/run-jmh.sh EventCalendar         # a regex selecting benchmarks; extra JMH options may follow
#   bench/run-jmh.sh EgressPort -p ...     #
#
# Reading -prof gc: gc.alloc.rate.norm is bytes allocated per operation. It must stay ~0 B/op for
# EventCalendarBenchmark and EgressPortBenchmark (the per-event hot path allocates nothing); EndToEndBenchmark
# allocates per run (assembly is untimed, but results are collected at the end of each run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/rocelab-bench/target/benchmarks.jar"

echo "run-jmh: building rocelab-bench..." >&2
log="$(mktemp)"
if ! (cd "$root" && mvn -B -q -DskipTests -pl rocelab-bench -am package >"$log" 2>&1); then
  cat "$log" >&2; rm -f "$log"
  echo "run-jmh: build failed" >&2
  exit 1
fi
rm -f "$log"

filter="${1:-}"
[ $# -gt 0 ] && shift
# 1 fork, 2 warm-up and 3 measured iterations of 1 s each.
exec java -jar "$jar" ${filter:+"$filter"} -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc "$@"
