#!/bin/sh
# A heartbeat check (HEARTBEAT.md "## Checks"): disk usage of a mount over a threshold.
#   - run: [sh, examples/checks/disk-usage.sh, /, "90"]
# Quiet (no output) below the threshold; one JSON line at or above it. Its content is the usage in
# steps of 5 %, so 91 % → 93 % is not news but 91 % → 96 % is reported at once.
mount="${1:-/}"
limit="${2:-90}"
df -P -- "$mount" | awk -v limit="$limit" 'NR == 2 {
  pct = $5; sub("%", "", pct)
  if (pct + 0 >= limit + 0)
    printf "{\"subject\":\"%s\",\"line\":\"disk %s is %s%% full (limit %s%%)\",\"short\":\"%s %s%% full\",\"content\":%d}\n", $6, $6, pct, limit, $6, pct, int(pct / 5) * 5
}'
