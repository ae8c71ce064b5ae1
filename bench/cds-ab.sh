#!/usr/bin/env bash
# A/B of a class-data-sharing (CDS) archive for rocelab's JVM: the built-in demo and bench-B, each run as a whole
# process with and without the archive, interleaved (ABBA order) so that a change in the machine's load hits both.
#
#   bench/cds-ab.sh            # 5 rounds
#   ROUNDS=3 bench/cds-ab.sh
#
# The archive is made as the launcher used to make it (-XX:ArchiveClassesAtExit over one demo run). Per run, with
# the launcher's collector (-XX:+UseSerialGC): the process's wall time and CPU time (user + sys, /usr/bin/time) and
# the event loop's wall time (summary.json wall_seconds); start-up is the process time less the loop.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/rocelab-cli/target/rocelab.jar"
rounds="${ROUNDS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
java -XX:+UseSerialGC -XX:ArchiveClassesAtExit="$work/rocelab.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
  -jar "$jar" run --out "$work/warm" -q >/dev/null 2>&1
echo "round scenario archive wall_s cpu_s loop_s load"
for i in $(seq 1 "$rounds"); do
  for scen in demo bench-B; do
    if [ $((i % 2)) = 1 ]; then modes="cds none"; else modes="none cds"; fi
    for mode in $modes; do
      o="$work/r$i-$scen-$mode"
      args=(run --out "$o/out" -q)
      [ "$scen" = bench-B ] && args=(run "$root/scenarios/bench/bench-B.yaml" --out "$o/out" -q)
      opts=(-XX:+UseSerialGC)
      [ "$mode" = cds ] && opts+=(-XX:SharedArchiveFile="$work/rocelab.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
      mkdir -p "$o"
      /usr/bin/time -f "%e %U %S" -o "$o/time" java "${opts[@]}" -jar "$jar" "${args[@]}"
      read -r wall user sys < "$o/time"
      loop=$(grep -o '"wall_seconds": [0-9.]*' "$o/out/summary.json" | awk '{print $2}')
      echo "$i $scen $mode $wall $(echo "$user + $sys" | bc) $loop $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
