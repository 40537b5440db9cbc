#!/bin/sh
# Starts `heartbeat-kit loop` in the background and stops it cleanly.
#
#   ./heartbeat-loop.sh start [-- LOOP OPTIONS]   e.g. start -- --sink file:.heartbeat/outbox.jsonl
#   ./heartbeat-loop.sh status
#   ./heartbeat-loop.sh stop                      SIGTERM, wait for HEARTBEAT_SHUTDOWN
#
# Files (HEARTBEAT_RUN_DIR, default ./.heartbeat): loop.pid, loop.log (the loop's stdout+stderr),
# loop.outbox (where a `--sink file:PATH` sends the messages, and how long it was at start).
# HEARTBEAT_KIT is the command to run (default: node_modules/.bin/heartbeat-kit, which execs node,
# so the pid in loop.pid is the loop itself and SIGTERM reaches it).
# HEARTBEAT_STOP_TIMEOUT: seconds stop waits for the current cycle to finish (default 120).
set -eu

RUN_DIR=${HEARTBEAT_RUN_DIR:-./.heartbeat}
PIDFILE=$RUN_DIR/loop.pid
LOG=$RUN_DIR/loop.log
KIT=${HEARTBEAT_KIT:-node_modules/.bin/heartbeat-kit}
STOP_TIMEOUT=${HEARTBEAT_STOP_TIMEOUT:-120}

# The pid in the pidfile, if that process is alive and is a heartbeat loop (pids get reused).
running_pid() {
  [ -f "$PIDFILE" ] || return 1
  pid=$(cat "$PIDFILE")
  case $pid in '' | *[!0-9]*) return 1 ;; esac
  kill -0 "$pid" 2>/dev/null || return 1
  args=$(ps -o args= -p "$pid" 2>/dev/null || true)
  case $args in *loop*) echo "$pid" ;; *) return 1 ;; esac
}

# Lines the current run wrote: the log after the last start marker, and new lines of a file sink.
current_log() {
  awk '/^# heartbeat-loop.sh: start /{buf=""; next} {buf = buf $0 "\n"} END{printf "%s", buf}' "$LOG"
  if [ -f "$RUN_DIR/loop.outbox" ]; then
    outbox=$(sed -n 1p "$RUN_DIR/loop.outbox")
    before=$(sed -n 2p "$RUN_DIR/loop.outbox")
    [ -f "$outbox" ] && tail -n +$((before + 1)) "$outbox"
  fi
  return 0
}

# Remembers a `--sink file:PATH` (or --sink=file:PATH) of the loop and the file's length now.
remember_outbox() {
  rm -f "$RUN_DIR/loop.outbox"
  prev=''
  for arg in "$@"; do
    spec=''
    case $prev in --sink) spec=$arg ;; esac
    case $arg in --sink=*) spec=${arg#--sink=} ;; esac
    case $spec in file:*)
      path=${spec#file:}
      lines=0
      [ -f "$path" ] && lines=$(wc -l <"$path")
      printf '%s\n%s\n' "$path" "$lines" >"$RUN_DIR/loop.outbox"
      ;;
    esac
    prev=$arg
  done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift

case $cmd in
start)
  if pid=$(running_pid); then
    echo "heartbeat loop already running (pid $pid)" >&2
    exit 1
  fi
  mkdir -p "$RUN_DIR"
  echo "# heartbeat-loop.sh: start $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$LOG"
  remember_outbox "$@"
  # shellcheck disable=SC2086 # HEARTBEAT_KIT may be "node path/to/bin.js"
  nohup $KIT loop "$@" >>"$LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  # Wait for HEARTBEAT_ONLINE (or an early exit, e.g. a config error).
  i=0
  while [ $i -lt 100 ]; do
    if current_log | grep -q 'HEARTBEAT_ONLINE'; then
      echo "heartbeat loop started (pid $pid), log $LOG"
      exit 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PIDFILE"
      echo "heartbeat loop exited at start:" >&2
      current_log | tail -n 5 >&2
      exit 1
    fi
    sleep 0.1
    i=$((i + 1))
  done
  echo "heartbeat loop (pid $pid) running, but no HEARTBEAT_ONLINE yet; see $LOG" >&2
  exit 0
  ;;
stop)
  if ! pid=$(running_pid); then
    rm -f "$PIDFILE"
    echo "heartbeat loop not running"
    exit 0
  fi
  kill -TERM "$pid"
  # The loop finishes its current cycle, sends HEARTBEAT_SHUTDOWN and exits 0.
  waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge $((STOP_TIMEOUT * 10)) ]; then
      echo "heartbeat loop (pid $pid) still running after ${STOP_TIMEOUT}s; not killed" >&2
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$PIDFILE"
  line=$(current_log | grep 'HEARTBEAT_SHUTDOWN' | tail -n 1 || true)
  if [ -z "$line" ]; then
    echo "heartbeat loop (pid $pid) exited without HEARTBEAT_SHUTDOWN; see $LOG" >&2
    exit 1
  fi
  echo "$line"
  ;;
status)
  if pid=$(running_pid); then
    echo "heartbeat loop running (pid $pid)"
  else
    echo "heartbeat loop not running"
    exit 3
  fi
  ;;
*)
  echo "usage: $0 start [-- LOOP OPTIONS] | stop | status" >&2
  exit 2
  ;;
esac
