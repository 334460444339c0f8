# shellcheck shell=bash
# Redis: Debian's redis-server, our own instance (not the system service).
# Sourced by stack.sh (needs lib.sh).

REDIS_PACKAGE=redis-server   # Debian 12 ships Redis 7.0.x; the exact version is whatever apt installed
REDIS_PORT="${STACK_REDIS_PORT:-16379}"
REDIS_HOME="$STACK_DIR/redis"

redis_port() { printf '%s' "$REDIS_PORT"; }
redis_address() { printf '%s:%s' "$STACK_HOST" "$REDIS_PORT"; }
redis_url() { printf 'redis://%s:%s' "$STACK_HOST" "$REDIS_PORT"; }
# Redis rewrites its process title to "redis-server <addr>", so the marker is just the program name.
redis_marker() { printf 'redis-server'; }
redis_what() { printf 'redis-cli ping on %s to answer PONG' "$(redis_address)"; }
redis_data_dirs() { printf '%s\n' "$REDIS_HOME"; }

redis_security() { if stack_secure; then printf '%s' "ACL user $STACK_USER (default off)"; else printf '%s' 'no authentication'; fi; }
redis_version() {
  local v
  v="$(redis-server --version 2>/dev/null | sed -n 's/.* v=\([^ ]*\).*/\1/p')"
  printf '%s' "${v:-unknown}"
}

redis_check_ports() {
  stack_require_free_port redis "$REDIS_PORT" STACK_REDIS_PORT
}

redis_prepare() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  local log sudo=()
  log="$(stack_logfile redis)"
  mkdir -p "$STACK_LOG_DIR"
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null || { stack_say "redis: redis-server is missing; install it with: apt-get install -y $REDIS_PACKAGE"; return 1; }
    sudo=(sudo -n)
  fi
  stack_say "redis: redis-server not found; installing the Debian package $REDIS_PACKAGE"
  if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q \
         && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$REDIS_PACKAGE"; } \
       >> "$log" 2>&1 < /dev/null; then
    stack_say "redis: apt-get install $REDIS_PACKAGE failed; see $(stack_rel "$log")"
    return 1
  fi
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null
}

# Secured (STACK_SECURE, the default): the default user is off and one ACL user may run everything,
# so every client proves REDIS_USERNAME and REDIS_PASSWORD. The ACL lines go in a config file
# (mode 600), not on the command line, where `ps` would show the password.
redis_acl_config() {
  local conf="$REDIS_HOME/acl.conf"
  (umask 077; {
    if stack_secure; then
      printf 'user default off\n'
      printf 'user %s on >%s ~* &* +@all\n' "$STACK_USER" "$(stack_secret redis-password)"
    fi
  } > "$conf")
  printf '%s' "$conf"
}

# redis-cli as the stack's user, within a time limit (the password in REDISCLI_AUTH, not on the command line).
redis_cli() {
  if stack_secure; then
    REDISCLI_AUTH="$(stack_secret redis-password)" timeout 3 redis-cli --user "$STACK_USER" "$@"
  else
    timeout 3 redis-cli "$@"
  fi
}

# What stack.env says of Redis beside its URL.
redis_env() {
  stack_secure || return 0
  printf 'REDIS_USERNAME=%s\n' "$STACK_USER"
  printf 'REDIS_PASSWORD=%s\n' "$(stack_secret redis-password)"
}

redis_start() {
  mkdir -p "$REDIS_HOME"
  local conf
  conf="$(redis_acl_config)"
  # No config file: built-in defaults plus these options. RDB snapshots (also written on SIGTERM)
  # keep data across down/up; no AOF.
  stack_spawn redis "$REDIS_HOME" \
    redis-server "$conf" \
      --port "$REDIS_PORT" \
      --bind "$STACK_HOST" \
      --protected-mode yes \
      --daemonize no \
      --supervised no \
      --dir "$REDIS_HOME" \
      --dbfilename dump.rdb \
      --save "3600 1 300 100 60 10000" \
      --appendonly no \
      --logfile "" \
      --loglevel notice
}

redis_probe() {
  local reply
  reply="$(redis_cli -h "$STACK_HOST" -p "$REDIS_PORT" ping 2>/dev/null || true)"
  if [[ "$reply" == PONG ]]; then
    echo "PONG"
    return 0
  fi
  echo "ping -> ${reply:-no answer}"
  return 1
}
