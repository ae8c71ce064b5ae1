#!/usr/bin/env bash
# Whether two jars write the same outputs: every shipped example and bench-B, run by both, every file compared
# byte for byte (summary.json without its wall-clock lines), and the chart images, whose encoding may change,
# compared by their decoded pixels (bench/PngPixels.java).
#
#   bench/same-outputs.sh OLD.jar NEW.jar [RUN FLAGS...]        e.g. ... --model flow, ... --ideal
#
# OLD_JAVA and NEW_JAVA (default: java) are the commands that run each jar, JVM options included, to compare JVMs
# with one jar: OLD_JAVA=java NEW_JAVA="/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -XX:AOTCache=F" ... J.jar J.jar
#
# Prints one line per scenario (the exit codes and any file that differs) and exits 1 if anything differs.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old=$1; new=$2; shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bad=0
for f in "$here"/scenarios/examples/*.yaml "$here"/scenarios/bench/bench-B.yaml; do
  n=$(basename "$f" .yaml)
  ${OLD_JAVA:-java} -XX:+UseSerialGC -jar "$old" run "$f" -q --out "$work/old/$n" "$@" >/dev/null 2>&1; a=$?
  ${NEW_JAVA:-java} -XX:+UseSerialGC -jar "$new" run "$f" -q --out "$work/new/$n" "$@" >/dev/null 2>&1; b=$?
  diffs=""
  [ $a = $b ] || diffs="exit codes differ"
  if [ -d "$work/old/$n" ] || [ -d "$work/new/$n" ]; then
    [ "$(cd "$work/old/$n" 2>/dev/null && find . -type f | sort)" = "$(cd "$work/new/$n" 2>/dev/null && find . -type f | sort)" ] \
      || diffs="$diffs; the files differ"
    for x in $(cd "$work/old/$n" 2>/dev/null && find . -type f ! -name '*.png' | sort); do
      if [ "$(basename "$x")" = summary.json ]; then
        cmp -s <(grep -v -E '"(wall_seconds|events_per_second)"' "$work/old/$n/$x") \
               <(grep -v -E '"(wall_seconds|events_per_second)"' "$work/new/$n/$x" 2>/dev/null) || diffs="$diffs $x"
      else
        cmp -s "$work/old/$n/$x" "$work/new/$n/$x" || diffs="$diffs $x"
      fi
    done
  fi
  [ -n "$diffs" ] && bad=1
  echo "$n: exit $a / $b${diffs:+: DIFFERENT:$diffs}"
done
java "$here/bench/PngPixels.java" "$work/old" "$work/new" || bad=1
exit $bad
