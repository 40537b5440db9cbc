#!/bin/sh
# A heartbeat check (HEARTBEAT.md "## Checks"): an HTTP endpoint answers 2xx.
#   - run: [sh, examples/checks/http-up.sh, "https://staging.example.com/health"]
# Quiet when it does; one plain-text line (a finding) with curl's reason when it does not.
url="$1"
if [ -z "$url" ]; then echo "usage: http-up.sh URL" >&2; exit 64; fi
if ! out=$(curl -fsS --max-time 5 -o /dev/null -- "$url" 2>&1); then
  printf '%s is down: %s\n' "$url" "$out"
fi
exit 0
