#!/usr/bin/env bash
# Local infrastructure stack, run natively (no Docker): Kafka, Apicurio Registry, mongo-java-server, Redis.
# See scripts/stack/README.md.
#
#   stack.sh up [component...]             start what is not running+ready, write .stack/stack.env
#   stack.sh down [--purge] [component...]  stop (SIGTERM, then SIGKILL after STACK_STOP_TIMEOUT); --purge also deletes data
#   stack.sh reset [component...]           same as down --purge
#   stack.sh restart [component...]         down, then up
#   stack.sh status [--json]                readiness of every component; exit 1 if any is not ready
#   stack.sh env                            print .stack/stack.env content
#   stack.sh logs <component> [lines]       tail a component's log
#
# Components: kafka, schema-registry, mongo, redis (aliases: registry, apicurio, mongodb).
set -euo pipefail

STACK_SELF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
. "$STACK_SELF_DIR/lib.sh"
# shellcheck source=kafka.sh
. "$STACK_SELF_DIR/kafka.sh"
# shellcheck source=registry.sh
. "$STACK_SELF_DIR/registry.sh"
# shellcheck source=mongo.sh
. "$STACK_SELF_DIR/mongo.sh"
# shellcheck source=redis.sh
. "$STACK_SELF_DIR/redis.sh"

STACK_COMPONENTS=(kafka schema-registry mongo redis)

usage() {
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# canonical component name for a user-supplied one
comp_canonical() {
  case "$1" in
    kafka) echo kafka ;;
    schema-registry|registry|apicurio|schemaRegistry) echo schema-registry ;;
    mongo|mongodb) echo mongo ;;
    redis) echo redis ;;
    *) return 1 ;;
  esac
}
# function prefix in the component files
comp_fn() {
  case "$1" in
    schema-registry) echo registry ;;
    *) echo "$1" ;;
  esac
}
# key in `status --json`
comp_key() {
  case "$1" in
    schema-registry) echo schemaRegistry ;;
    mongo) echo mongodb ;;
    *) echo "$1" ;;
  esac
}

# Parses component arguments into SELECTED (all components when none given).
select_components() {
  SELECTED=()
  local arg c
  for arg in "$@"; do
    c="$(comp_canonical "$arg")" || stack_die "unknown component '$arg' (expected: ${STACK_COMPONENTS[*]})"
    SELECTED+=("$c")
  done
  if (( ${#SELECTED[@]} == 0 )); then
    SELECTED=("${STACK_COMPONENTS[@]}")
  fi
}

# Serialises up/down of this checkout's stack (status needs no lock).
take_lock() {
  mkdir -p "$STACK_RUN_DIR" "$STACK_LOG_DIR"
  if command -v flock >/dev/null; then
    exec 9> "$STACK_RUN_DIR/stack.lock"
    if ! flock -n 9; then
      stack_say "another stack.sh up/down is running; waiting for it"
      flock -w 900 9 || stack_die "could not get the stack lock ($(stack_rel "$STACK_RUN_DIR")/stack.lock)"
    fi
  fi
}

now_ms() { date +%s%3N; }

# component_up <component> <result file>: bring one component to running+ready.
component_up() {
  local name="$1" out="$2" fn marker t0
  fn="$(comp_fn "$name")"
  marker="$("${fn}_marker")"
  echo "failed" > "$out"
  # A component may say the process running is not the one asked for (kafka: another version).
  if declare -F "${fn}_outdated" >/dev/null && "${fn}_outdated" "$(stack_pid "$name" "$marker" || true)"; then
    stack_say "$name: the running process is another version; stopping it to start $("${fn}_version")"
    stack_stop "$name" "$marker"
  fi
  if stack_pid "$name" "$marker" >/dev/null; then
    if "${fn}_probe" >/dev/null 2>&1; then
      echo "already running" > "$out"
      return 0
    fi
    stack_say "$name: process is running but not ready yet"
    stack_wait_ready "$name" "$("${fn}_what")" "${fn}_probe" "$marker" 0 || return 1
    echo "ready" > "$out"
    return 0
  fi
  "${fn}_check_ports" || return 1
  stack_with_lock "prepare-$name" "${fn}_prepare" || return 1
  t0="$(now_ms)"
  "${fn}_start" || return 1
  stack_wait_ready "$name" "$("${fn}_what")" "${fn}_probe" "$marker" || return 1
  local ms=$(( $(now_ms) - t0 ))
  printf 'started in %d.%ds\n' $(( ms / 1000 )) $(( ms % 1000 / 100 )) > "$out"
}

write_env() {
  mkdir -p "$STACK_DIR"
  local tmp="$STACK_ENV_FILE.tmp.$$"
  umask 077   # it holds the stack's passwords
  {
    printf 'KAFKA_BROKERS=%s\n' "$(kafka_address)"
    printf 'SCHEMA_REGISTRY_URL=%s\n' "$(registry_url)"
    printf 'MONGO_URL=%s\n' "$(mongo_url)"
    printf 'REDIS_URL=%s\n' "$(redis_url)"
    # The secured stack's credentials and CA (scripts/stack/lib.sh, STACK_SECURE).
    kafka_env
    registry_env
    redis_env
  } > "$tmp"
  mv -f "$tmp" "$STACK_ENV_FILE"
  # Local settings and generated secrets for the services (written once, kept across restarts).
  node "$(dirname "${BASH_SOURCE[0]}")/local-env.mjs"
}

cmd_up() {
  select_components "$@"
  take_lock
  local tmp name fn rc=0
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now: $tmp is local
  trap "rm -rf '$tmp'" EXIT
  declare -A pids=()
  for name in "${SELECTED[@]}"; do
    component_up "$name" "$tmp/$name" &
    pids[$name]=$!
  done
  for name in "${SELECTED[@]}"; do
    wait "${pids[$name]}" || rc=1
  done
  # Only a fully successful `up` (re)writes the env file, so a failed run with other ports
  # cannot leave addresses behind that nothing listens on.
  (( rc == 0 )) && write_env
  for name in "${SELECTED[@]}"; do
    fn="$(comp_fn "$name")"
    printf '%-16s %-42s %-8s %s\n' "$name" "$("${fn}_url")" "$("${fn}_version")" "$(cat "$tmp/$name")"
  done
  if (( rc == 0 )); then
    echo "env: $(stack_rel "$STACK_ENV_FILE")"
  fi
  return "$rc"
}

cmd_down() {
  local purge=0 args=() a
  for a in "$@"; do
    case "$a" in
      --purge|-p) purge=1 ;;
      *) args+=("$a") ;;
    esac
  done
  select_components "${args[@]+"${args[@]}"}"
  take_lock
  local name fn
  declare -A pids=()
  for name in "${SELECTED[@]}"; do
    fn="$(comp_fn "$name")"
    stack_stop "$name" "$("${fn}_marker")" &
    pids[$name]=$!
  done
  for name in "${SELECTED[@]}"; do
    wait "${pids[$name]}" || true
    if (( purge )); then
      fn="$(comp_fn "$name")"
      local d
      while IFS= read -r d; do
        [[ -n "$d" && "$d" == "$STACK_DIR"/* ]] && rm -rf "$d"
      done < <("${fn}_data_dirs")
      rm -f "$(stack_logfile "$name")"
      echo "$name: stopped, data removed"
    else
      echo "$name: stopped"
    fi
  done
  if (( purge )) && (( ${#SELECTED[@]} == ${#STACK_COMPONENTS[@]} )); then
    rm -f "$STACK_ENV_FILE"
  fi
}

json_str() {
  local s="$1"
  s="${s//\\/\\\\}"
  s="${s//\"/\\\"}"
  s="$(printf '%s' "$s" | tr -d '\000-\037')"
  printf '"%s"' "$s"
}

cmd_status() {
  local json=0 a
  for a in "$@"; do
    case "$a" in
      --json) json=1 ;;
      *) stack_die "status: unknown argument '$a'" ;;
    esac
  done
  local tmp name fn
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now: $tmp is local
  trap "rm -rf '$tmp'" EXIT
  for name in "${STACK_COMPONENTS[@]}"; do
    fn="$(comp_fn "$name")"
    (
      pid="$(stack_pid "$name" "$("${fn}_marker")" 2>/dev/null || true)"
      echo "$pid" > "$tmp/$name.pid"
      if [[ -n "$pid" ]]; then
        # one retry so a momentarily slow answer on a loaded machine does not read as "not ready"
        if detail="$("${fn}_probe" 2>/dev/null)" || { sleep 0.5; detail="$("${fn}_probe" 2>/dev/null)"; }; then
          echo ok > "$tmp/$name.rc"
        else
          echo fail > "$tmp/$name.rc"
        fi
        printf '%s' "$detail" | head -n 1 > "$tmp/$name.detail"
      else
        echo fail > "$tmp/$name.rc"
        echo "not running" > "$tmp/$name.detail"
      fi
    ) &
  done
  wait
  local all_ready=1 ready pid detail first=1
  if (( json )); then printf '{'; else printf '%-16s %-6s %-8s %-42s %-8s %-36s %s\n' COMPONENT READY PID URL VERSION SECURITY DETAIL; fi
  for name in "${STACK_COMPONENTS[@]}"; do
    fn="$(comp_fn "$name")"
    pid="$(cat "$tmp/$name.pid")"
    detail="$(cat "$tmp/$name.detail")"
    if [[ "$(cat "$tmp/$name.rc")" == ok ]]; then ready=true; else ready=false; all_ready=0; fi
    if (( json )); then
      (( first )) || printf ','
      first=0
      printf '%s:{"address":%s,"url":%s,"ready":%s,"running":%s,"pid":%s,"version":%s,"security":%s,"log":%s,"detail":%s}' \
        "$(json_str "$(comp_key "$name")")" \
        "$(json_str "$("${fn}_address")")" \
        "$(json_str "$("${fn}_url")")" \
        "$ready" \
        "$([[ -n "$pid" ]] && echo true || echo false)" \
        "${pid:-null}" \
        "$(json_str "$("${fn}_version")")" \
        "$(json_str "$("${fn}_security")")" \
        "$(json_str "$(stack_rel "$(stack_logfile "$name")")")" \
        "$(json_str "$detail")"
    else
      printf '%-16s %-6s %-8s %-42s %-8s %-36s %s\n' "$name" "$([[ $ready == true ]] && echo yes || echo NO)" \
        "${pid:--}" "$("${fn}_url")" "$("${fn}_version")" "$("${fn}_security")" "$detail"
    fi
  done
  if (( json )); then printf '}\n'; fi
  (( all_ready ))
}

cmd_logs() {
  local name
  [[ $# -ge 1 ]] || stack_die "usage: stack.sh logs <component> [lines]"
  name="$(comp_canonical "$1")" || stack_die "unknown component '$1'"
  local log
  log="$(stack_logfile "$name")"
  [[ -f "$log" ]] || stack_die "no log yet: $(stack_rel "$log")"
  tail -n "${2:-100}" "$log"
}

main() {
  local cmd="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    up|start) cmd_up "$@" ;;
    down|stop) cmd_down "$@" ;;
    reset) cmd_down --purge "$@" ;;
    restart) cmd_down "$@" && cmd_up "$@" ;;
    status) cmd_status "$@" ;;
    env) [[ -f "$STACK_ENV_FILE" ]] || stack_die "no $(stack_rel "$STACK_ENV_FILE") yet; run: stack.sh up"; cat "$STACK_ENV_FILE" ;;
    logs) cmd_logs "$@" ;;
    -h|--help|help|'') usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

main "$@"
