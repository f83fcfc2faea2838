#!/usr/bin/env bash
# An orchestrator, as a CI job would write one: ITERATIONS times, `before`, an edit by the "agent",
# then `after`, all through the CLI. Any failed call stops it with that call's output.
# Usage: orchestrator.sh NODE CLI WORKSPACE RUN ITERATIONS
set -euo pipefail
node=$1 cli=$2 ws=$3 run=$4 iterations=$5
for i in $(seq 1 "$iterations"); do
  "$node" "$cli" before --run "$run" -C "$ws" --json > /dev/null
  printf 'iteration %s of %s\n' "$i" "$run" > "$ws/iteration-$i.txt"
  printf '%s\n' "$i" >> "$ws/progress.txt"
  "$node" "$cli" after --run "$run" --iteration "$i" --task "orchestrated edit $i" -C "$ws" --json > /dev/null
done
