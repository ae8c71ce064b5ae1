#!/usr/bin/env bash
# Writes the all-to-all scale scenarios of issue 16 (scenarios/bench/scale-alltoall-<hosts>.yaml): bench-B2's fabric
# and settings (100 Gb/s, 1 us links, ECN, DCQCN hpcc-ns3, per-flow ECMP, 32 MB buffers) made lossless as the
# reference benchmarks ask (PFC, dynamic threshold alpha 1/8; lossy, a 512-host run lost frames and spent 130 ms of
# simulated time in go-back-N timeouts), grown to more hosts with
# the same leaf shape (8 hosts per leaf, 8 spines, every leaf linked once to every spine: non-blocking), every host
# writing 64 KiB to every other host at t = 0, with a 4096 B MTU (16 data packets per pair: 1,024 hosts are
# 1,047,552 queue pairs and 16.8 M data packets). Then, with --run, profiles each with rocelab.bench.ScaleProfile
# (the event loop's time, events and packets, the live heap) in a fresh JVM, peak RSS from /usr/bin/time;
# PROFILE_ARGS="--until-us 100" stops each run at 100 us of simulated time (the same window at every size).
#
#   bench/alltoall-scale.sh                       # (re)writes the scenario files
#   bench/alltoall-scale.sh --run 128 256 512     # and profiles those sizes (JAVA_OPTS=-Xmx... to bound the heap)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for hosts in 128 256 512 1024; do
  cat >"$root/scenarios/bench/scale-alltoall-$hosts.yaml" <<YAML
# All-to-all scale point of issue 16 (written by bench/alltoall-scale.sh): $hosts hosts on $((hosts / 8)) leaves x 8 spines,
# every host writes 64 KiB to every other host ($((hosts * (hosts - 1))) flows, $((hosts * (hosts - 1) * 16)) data packets of 4096 B payload).
name: scale-alltoall-$hosts
seed: 1
fabric: {mode: roce-lossless, mtu: 4096}
topology: {kind: leaf-spine, leaves: $((hosts / 8)), spines: 8, hosts-per-leaf: 8, parallel-uplinks: 1, link: {rate: 100Gbps, delay: 1us}}
switch:
  buffer: 32MB
  forwarding-latency: 0ns
  ecmp: {mode: ecmp}
  ecn: {marking: red, kmin: 400KB, kmax: 1600KB, pmax: 0.2}
  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}
nic:
  cc: dcqcn
  dcqcn: {profile: hpcc-ns3}
traffic:
  - {kind: all-to-all, size: 64KiB}
YAML
done
[ "${1:-}" = "--run" ] || exit 0
shift
jar="$root/rocelab-bench/target/benchmarks.jar"
echo "alltoall-scale: building rocelab-bench..." >&2
log="$(mktemp)"
if ! (cd "$root" && mvn -B -q -ntp -DskipTests -pl rocelab-bench -am package >"$log" 2>&1); then
  cat "$log" >&2; rm -f "$log"; echo "alltoall-scale: build failed" >&2; exit 1
fi
rm -f "$log"
for hosts in "$@"; do
  stats="$(mktemp)"
  /usr/bin/time -f "%e %U %M" -o "$stats" java -XX:+UseSerialGC ${JAVA_OPTS:-} -cp "$jar" rocelab.bench.ScaleProfile \
    "$root/scenarios/bench/scale-alltoall-$hosts.yaml" ${PROFILE_ARGS:-}
  read -r wall user rss <"$stats"
  rm -f "$stats"
  echo "  whole process ${wall} s wall, ${user} s user CPU, peak RSS $((rss / 1024)) MiB"
done
