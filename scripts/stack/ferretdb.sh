# shellcheck shell=bash
# FerretDB (MongoDB wire protocol) with the embedded SQLite backend.
# Sourced by stack.sh (needs lib.sh).

FERRETDB_VERSION=v1.24.0
FERRETDB_MODULE=github.com/FerretDB/FerretDB

FERRETDB_PORT="${STACK_FERRETDB_PORT:-27117}"
FERRETDB_LOG_LEVEL="${STACK_FERRETDB_LOG_LEVEL:-warn}"   # info logs every connection

FERRETDB_CACHE="$STACK_CACHE_DIR/ferretdb-$FERRETDB_VERSION"
FERRETDB_BIN="$FERRETDB_CACHE/ferretdb"
FERRETDB_HOME="$STACK_DIR/ferretdb"

ferretdb_port() { printf '%s' "$FERRETDB_PORT"; }
ferretdb_address() { printf '%s:%s' "$STACK_HOST" "$FERRETDB_PORT"; }
ferretdb_url() { printf 'mongodb://%s:%s/' "$STACK_HOST" "$FERRETDB_PORT"; }
ferretdb_version() { printf '%s' "${FERRETDB_VERSION#v}"; }
ferretdb_marker() { printf -- '--sqlite-url=file:%s/data/' "$FERRETDB_HOME"; }
ferretdb_what() { printf 'a MongoDB wire-protocol ping on %s' "$(ferretdb_address)"; }
ferretdb_data_dirs() { printf '%s\n' "$FERRETDB_HOME"; }

ferretdb_check_ports() {
  stack_require_free_port ferretdb "$FERRETDB_PORT" STACK_FERRETDB_PORT
}

# Why not `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.0`: `go install pkg@version`
# asks the module proxy for the module's version list (deprecation/retraction check), and the proxy
# reachable from CI refuses that request for this module, so the install fails. Downloading the exact
# version (`go mod download`) works. Building from the module cache also needs
# build/version/version.txt, which release builds generate and the module zip lacks (without it the
# binary panics at start: "Invalid build/version/version.txt"). So: copy the downloaded source to a
# writable dir, write version.txt, `go build` once, and keep the binary in the cache.
ferretdb_prepare() {
  [[ -x "$FERRETDB_BIN" ]] && return 0
  command -v go >/dev/null || { stack_say "ferretdb: go is required to build FerretDB"; return 1; }
  local log work src
  log="$(stack_logfile ferretdb)"
  mkdir -p "$FERRETDB_CACHE" "$STACK_LOG_DIR"
  stack_say "ferretdb: building FerretDB $FERRETDB_VERSION from the Go module (first run only, ~1 minute)"
  if ! src="$(cd "$FERRETDB_CACHE" && go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" 2>>"$log" \
        | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')" || [[ -z "$src" || ! -d "$src" ]]; then
    stack_say "ferretdb: go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed; see $(stack_rel "$log")"
    return 1
  fi
  work="$(mktemp -d "$FERRETDB_CACHE/.build.XXXXXX")"
  cp -R "$src/." "$work/src"
  chmod -R u+w "$work/src"
  printf '%s\n' "$FERRETDB_VERSION" > "$work/src/build/version/version.txt"
  if ! ( cd "$work/src" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false \
          go build -trimpath -o "$work/ferretdb" ./cmd/ferretdb ) >> "$log" 2>&1; then
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work"
    stack_say "ferretdb: go build failed; see $(stack_rel "$log")"
    return 1
  fi
  mv -f "$work/ferretdb" "$FERRETDB_BIN"
  rm -rf "$work"
}

ferretdb_start() {
  mkdir -p "$FERRETDB_HOME/data" "$FERRETDB_HOME/state"
  stack_spawn ferretdb "$FERRETDB_HOME" \
    "$FERRETDB_BIN" \
      --handler=sqlite \
      "$(ferretdb_marker)" \
      --listen-addr="$STACK_HOST:$FERRETDB_PORT" \
      --debug-addr=- \
      --telemetry=disable \
      --state-dir="$FERRETDB_HOME/state" \
      --log-level="$FERRETDB_LOG_LEVEL"
}

ferretdb_probe() {
  stack_node_probe mongodb "$FERRETDB_PORT"
}
