# shellcheck shell=bash disable=SC2034 # variables are used by the files sourcing this one
# Shared helpers for scripts/stack/*.sh. Sourced by stack.sh; not executable on its own.

STACK_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$STACK_SCRIPT_DIR/../.." && pwd)"

# Runtime state (ignored by git): data, logs, pid files, generated configs.
STACK_DIR="$ROOT/.stack"
STACK_LOG_DIR="$STACK_DIR/logs"
STACK_RUN_DIR="$STACK_DIR/run"
STACK_ENV_FILE="$STACK_DIR/stack.env"

# Downloads/builds that survive `down --purge` and are shared by every checkout on this machine.
STACK_CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/marketplace-stack"

STACK_HOST=127.0.0.1
STACK_READY_TIMEOUT="${STACK_READY_TIMEOUT:-90}"   # seconds to wait for a component to become ready
STACK_STOP_TIMEOUT="${STACK_STOP_TIMEOUT:-30}"     # seconds between SIGTERM and SIGKILL

stack_say() { printf 'stack: %s\n' "$*" >&2; }
# Progress detail (what a start waits for): shown with STACK_VERBOSE=1; each component's result line says the rest.
stack_detail() { [[ "${STACK_VERBOSE:-0}" == 0 ]] || stack_say "$@"; }
stack_die() { printf 'stack: %s\n' "$*" >&2; exit 1; }

# Relative path for messages (keeps output free of machine paths).
stack_rel() { local p="$1"; printf '%s' "${p#"$ROOT"/}"; }

stack_pidfile() { printf '%s/%s.pid' "$STACK_RUN_DIR" "$1"; }
stack_logfile() { printf '%s/%s.log' "$STACK_LOG_DIR" "$1"; }

# stack_pid <component> <cmdline-marker>: prints the pid of our running process, or fails.
# A pid file whose process is gone, or whose pid now belongs to something else
# (checked via the command line), is stale: it is removed.
stack_pid() {
  local name="$1" marker="$2" pidfile pid
  pidfile="$(stack_pidfile "$name")"
  [[ -f "$pidfile" ]] || return 1
  pid="$(tr -dc '0-9' < "$pidfile" 2>/dev/null || true)"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null \
     && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker"; then
    printf '%s' "$pid"
    return 0
  fi
  rm -f "$pidfile"
  return 1
}

# stack_spawn <component> <workdir> <command...>: start a detached process that outlives the caller
# (own session via setsid, SIGHUP ignored, stdin from /dev/null, output appended to the component log).
# The pid is written by the child itself right before exec, so it is exact even if setsid forks.
stack_spawn() {
  local name="$1" workdir="$2"; shift 2
  local pidfile logfile
  pidfile="$(stack_pidfile "$name")"
  logfile="$(stack_logfile "$name")"
  mkdir -p "$STACK_RUN_DIR" "$STACK_LOG_DIR"
  rm -f "$pidfile"
  printf '\n===== %s: starting %s =====\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" >> "$logfile"
  # fd 9 is the stack lock (see stack.sh); close it so the daemon does not hold the lock.
  # shellcheck disable=SC2016 # $$/$0/$@ belong to the inner bash
  ( cd "$workdir" && exec setsid nohup bash -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@" \
      < /dev/null >> "$logfile" 2>&1 9>&- ) &
  local i
  for i in $(seq 1 50); do
    [[ -s "$pidfile" ]] && return 0
    sleep 0.1
  done
  stack_say "$name: process did not start; see $(stack_rel "$logfile")"
  return 1
}

# stack_stop <component> <cmdline-marker>: SIGTERM, wait up to STACK_STOP_TIMEOUT, then SIGKILL.
stack_stop() {
  local name="$1" marker="$2" pid i limit
  if ! pid="$(stack_pid "$name" "$marker")"; then
    return 0
  fi
  # The process is a session/process-group leader (setsid): signal the whole group.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  limit=$(( STACK_STOP_TIMEOUT * 10 ))
  for (( i = 0; i < limit; i++ )); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    stack_say "$name did not stop within ${STACK_STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    for (( i = 0; i < 50; i++ )); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "$(stack_pidfile "$name")"
}

# stack_port_open <port>: something accepts TCP connections on 127.0.0.1:<port>.
stack_port_open() {
  # shellcheck disable=SC2016 # $0/$1 belong to the inner bash
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$STACK_HOST" "$1" 2>/dev/null
}

# stack_require_free_port <component> <port> <env var>: fail clearly if a foreign process holds the port.
stack_require_free_port() {
  local name="$1" port="$2" var="$3"
  if stack_port_open "$port"; then
    stack_say "$name: port $STACK_HOST:$port is already in use by a process not managed by this stack (set $var to use another port)"
    return 1
  fi
}

# stack_wait_ready <component> <what> <probe-function> <cmdline-marker> [started-here]
# Polls the probe until it succeeds, the process dies, or STACK_READY_TIMEOUT passes. On timeout a
# process started by this run (started-here=1, the default) is stopped so the next `up` starts afresh;
# one found already running is left alone.
stack_wait_ready() {
  local name="$1" what="$2" probe="$3" marker="$4" started_here="${5:-1}" deadline
  deadline=$(( SECONDS + STACK_READY_TIMEOUT ))
  stack_detail "$name: waiting up to ${STACK_READY_TIMEOUT}s for $what"
  while true; do
    if "$probe" >/dev/null 2>&1; then
      return 0
    fi
    if ! stack_pid "$name" "$marker" >/dev/null; then
      stack_say "$name exited before becoming ready; see $(stack_rel "$(stack_logfile "$name")")"
      return 1
    fi
    if (( SECONDS >= deadline )); then
      if [[ "$started_here" == 1 ]]; then
        stack_say "$name did not become ready within ${STACK_READY_TIMEOUT}s; see $(stack_rel "$(stack_logfile "$name")")"
        stack_stop "$name" "$marker"
      else
        stack_say "$name did not become ready within ${STACK_READY_TIMEOUT}s; see $(stack_rel "$(stack_logfile "$name")") (it was already running; stop it with: stack.sh down $name)"
      fi
      return 1
    fi
    sleep 0.5
  done
}

# stack_node_probe <kind> <port>: real protocol check through node (see probe.mjs).
stack_node_probe() {
  node "$STACK_SCRIPT_DIR/probe.mjs" "$@"
}

# Whether node_modules has a package (probe.mjs falls back to a TCP check without it).
stack_has_node_module() {
  [[ -f "$ROOT/node_modules/$1/package.json" ]]
}

# stack_classpath_ok <classpath file>: a classpath resolved by Maven into ~/.m2 is valid while every
# jar it lists still exists.
stack_classpath_ok() {
  [[ -s "$1" ]] || return 1
  local jar
  while IFS= read -r jar; do
    [[ -z "$jar" || -f "$jar" ]] || return 1
  done < <(tr ':' '\n' < "$1")
}

# stack_with_lock <lockname> <command...>: run a command holding a machine-wide lock in the cache dir
# (two checkouts preparing the same artifact, or two Maven runs sharing ~/.m2, never race).
stack_with_lock() {
  local name="$1"; shift
  mkdir -p "$STACK_CACHE_DIR"
  if command -v flock >/dev/null; then
    ( flock -w 1800 8 || exit 1; "$@" ) 8> "$STACK_CACHE_DIR/.$name.lock"
  else
    "$@"
  fi
}
stack_with_maven_lock() { stack_with_lock maven "$@"; }

# ---- The secured stack's secrets (STACK_SECURE, on unless set to 0): passwords and a CA of this
# checkout's own, made once in .stack/secrets (ignored, mode 700) and kept across restarts.
STACK_SECURE="${STACK_SECURE:-1}"
STACK_SECRETS_DIR="$STACK_DIR/secrets"
STACK_USER=marketplace   # the one user of Kafka (SCRAM and PLAIN), the registry and Redis (ACL)

stack_secure() { [[ "$STACK_SECURE" != 0 ]]; }

# stack_secret <name>: prints the secret <name>, making it (32 random characters) the first time.
stack_secret() {
  local file="$STACK_SECRETS_DIR/$1"
  if [[ ! -s "$file" ]]; then
    mkdir -p "$STACK_SECRETS_DIR" && chmod 700 "$STACK_SECRETS_DIR"
    (umask 077; head -c 48 /dev/urandom | base64 | tr -d '=+/\n' | head -c 32 > "$file.tmp.$$" && mv -f "$file.tmp.$$" "$file")
  fi
  cat "$file"
}

# stack_server_cert <name>: the stack's CA (ca.pem) and a certificate for 127.0.0.1 and localhost
# that it signed, as <name>.p12 (PKCS#12, for Java) with its password in the secret <name>-keystore.
stack_server_cert() {
  local name="$1" dir="$STACK_SECRETS_DIR"
  [[ -s "$dir/ca.pem" && -s "$dir/$name.p12" ]] && return 0
  command -v openssl >/dev/null || { stack_say "$name: openssl is required to make the stack's certificates"; return 1; }
  mkdir -p "$dir" && chmod 700 "$dir"
  (
    umask 077
    set -e
    if [[ ! -s "$dir/ca.pem" ]]; then
      openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=marketplace local stack CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
    fi
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$name" -keyout "$dir/$name.key" -out "$dir/$name.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > "$dir/$name.ext"
    openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
      -days 3650 -extfile "$dir/$name.ext" -out "$dir/$name.pem" 2>/dev/null
    openssl pkcs12 -export -in "$dir/$name.pem" -inkey "$dir/$name.key" -name "$name" \
      -passout "pass:$(stack_secret "$name-keystore")" -out "$dir/$name.p12"
    rm -f "$dir/$name.csr" "$dir/$name.ext"
  ) || { stack_say "$name: making the stack's certificate failed"; return 1; }
}
