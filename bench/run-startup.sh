#!/usr/bin/env bash
# Times the way from a scenario file to its first event (read, lint, assemble, first event) for each scenario given,
# each in a fresh JVM with the launcher's collector, and prints the peak heap and the process's peak RSS.
#
#   bench/run-startup.sh scenarios/bench/scale-*.yaml
#   JAVA_OPTS=-Xmx10g bench/run-startup.sh scenarios/bench/scale-megatron-4096.yaml
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/rocelab-bench/target/benchmarks.jar"

echo "run-startup: building rocelab-bench..." >&2
log="$(mktemp)"
if ! (cd "$root" && mvn -B -q -DskipTests -pl rocelab-bench -am package >"$log" 2>&1); then
  cat "$log" >&2; rm -f "$log"
  echo "run-startup: build failed" >&2
  exit 1
fi
rm -f "$log"

for scenario in "$@"; do
  stats="$(mktemp)"
  /usr/bin/time -f "%e %M" -o "$stats" java -XX:+UseSerialGC ${JAVA_OPTS:-} -cp "$jar" rocelab.bench.StartupProfile "$scenario"
  read -r wall rss <"$stats"
  rm -f "$stats"
  echo "  whole process ${wall} s (JVM start included), peak RSS $((rss / 1024)) MiB"
done
