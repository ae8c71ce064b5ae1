#!/usr/bin/env bash
# The machine instructions the main thread's time goes to in one packet-level run (which loads stall), where JFR's
# line-level attribution smears a miss over the inlined callers (BENCHMARKS.md: "Next steps for speed").
#
#   bench/hot-instructions.sh SCENARIO.yaml [METHODS] [MIN_SHARE]     e.g. scenarios/bench/bench-B2.yaml 6 0.03
#
# Runs `java -jar rocelab.jar run SCENARIO -q --threads 1` (the launcher's JVM options) under `perf record` (cpu-clock,
# 4999 Hz) with the code of every rocelab method the JIT compiles printed to a log (hex bytes: no hsdis plug-in is
# needed), then bench/HotInstructions.java attributes the main thread's samples to the instructions. Needs perf
# (Debian: linux-perf) and objdump (binutils). The samples include the run's reading, assembly and outputs; the loop
# dominates any run of more than a few seconds. The printing JIT compiles a little later, so time the run elsewhere.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scenario=$1; methods=${2:-6}; share=${3:-0.03}
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 2; }
command -v objdump >/dev/null || { echo "needs objdump (apt-get install binutils)" >&2; exit 2; }
[ -f "$here/rocelab-cli/target/rocelab.jar" ] || { echo "no rocelab.jar yet: build it first (./rocelab --version)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
perf record -q -F 4999 -o "$work/perf.data" -- java -XX:+UseSerialGC -XX:PretenureSizeThreshold=1m -XX:NewRatio=8 \
  -XX:+UseTransparentHugePages -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=quiet \
  -XX:CompileCommand='print,rocelab.*::*' -XX:+LogVMOutput -XX:LogFile="$work/jvm.log" -XX:-DisplayVMOutput \
  -jar "$here/rocelab-cli/target/rocelab.jar" run "$scenario" -q --threads 1 --out "$work/out" >/dev/null
perf script -i "$work/perf.data" -F comm,tid,ip 2>/dev/null > "$work/samples.txt"
java "$here/bench/HotInstructions.java" "$work/jvm.log" "$work/samples.txt" java "$methods" "$share"
