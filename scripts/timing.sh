# Sourced by the timing scripts (compare-progenitor.sh, compile-cost.sh).
now() { date +%s.%N; }
# best_of N command...: the least wall time of N runs, in seconds (empty if a run fails).
best_of() {
  local n=$1 best="" start t
  shift
  for _ in $(seq "$n"); do
    start=$(now)
    "$@" >/dev/null 2>&1 || return 1
    t=$(echo "$(now) - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
