# shellcheck shell=bash
# Apicurio Registry 3 (Quarkus app) with its Confluent-compatible API (/apis/ccompat/v7).
# Sourced by stack.sh (needs lib.sh).

REGISTRY_VERSION=3.0.9
REGISTRY_ARTIFACT="io.apicurio:apicurio-registry-app:$REGISTRY_VERSION:zip:all"

REGISTRY_PORT="${STACK_REGISTRY_PORT:-18081}"
# Quarkus management interface (health/metrics on a separate port). Apicurio 3.0.x is built with it
# disabled; should a build enable it, it binds here instead of Quarkus' default 9000.
REGISTRY_MANAGEMENT_PORT="${STACK_REGISTRY_MANAGEMENT_PORT:-18082}"
REGISTRY_HEAP_OPTS="${STACK_REGISTRY_HEAP_OPTS:--Xms64m -Xmx384m}"
# (the registry also runs with -XX:TieredStopAtLevel=1: C1 only, ~20% faster startup, plenty for tests)
# file: H2 database under .stack (schemas survive down/up, like Kafka's topics); mem: in-memory H2.
REGISTRY_STORAGE="${STACK_REGISTRY_STORAGE:-file}"
# true: ccompat matches schemas by canonical form (re-registering a reformatted/reordered schema
# returns the existing id); false (Apicurio's default): by exact text.
REGISTRY_CANONICAL_HASH="${STACK_REGISTRY_CANONICAL_HASH:-false}"

REGISTRY_CACHE="$STACK_CACHE_DIR/apicurio-registry-$REGISTRY_VERSION"
REGISTRY_JAR="$REGISTRY_CACHE/apicurio-registry-app-$REGISTRY_VERSION-runner.jar"
REGISTRY_HOME="$STACK_DIR/schema-registry"

registry_port() { printf '%s' "$REGISTRY_PORT"; }
registry_address() { printf '%s:%s' "$STACK_HOST" "$REGISTRY_PORT"; }
registry_url() { printf 'http://%s:%s/apis/ccompat/v7' "$STACK_HOST" "$REGISTRY_PORT"; }
registry_security() { if stack_secure; then printf '%s' "basic auth as $STACK_USER"; else printf '%s' 'no authentication'; fi; }
registry_version() { printf '%s' "$REGISTRY_VERSION"; }
registry_marker() { printf -- '-Dmarketplace.stack.home=%s' "$REGISTRY_HOME"; }
registry_what() { printf 'GET %s/subjects to return 200' "$(registry_url)"; }
registry_data_dirs() { printf '%s\n' "$REGISTRY_HOME"; }

registry_check_ports() {
  stack_require_free_port schema-registry "$REGISTRY_PORT" STACK_REGISTRY_PORT
}

registry_prepare() {
  [[ -f "$REGISTRY_JAR" && -d "$REGISTRY_CACHE/lib" ]] && return 0
  command -v mvn >/dev/null || { stack_say "schema-registry: mvn (Maven) is required to fetch Apicurio Registry"; return 1; }
  command -v unzip >/dev/null || { stack_say "schema-registry: unzip is required"; return 1; }
  local log work
  log="$(stack_logfile schema-registry)"
  mkdir -p "$STACK_CACHE_DIR" "$STACK_LOG_DIR"
  stack_say "schema-registry: fetching $REGISTRY_ARTIFACT with Maven and unpacking it (first run only)"
  work="$(mktemp -d "$STACK_CACHE_DIR/.apicurio-registry-$REGISTRY_VERSION.XXXXXX")"
  cp "$STACK_SCRIPT_DIR/maven/pom.xml" "$work/pom.xml"
  # dependency:copy resolves just this artifact (into ~/.m2 first). Transitive resolution would fail:
  # the app's parent POM is not published on Maven Central.
  if ! stack_with_maven_lock mvn -B -q -Dstyle.color=never -f "$work/pom.xml" dependency:copy \
        -Dartifact="$REGISTRY_ARTIFACT" -DoutputDirectory="$work/download" >> "$log" 2>&1; then
    rm -rf "$work"
    stack_say "schema-registry: Maven could not fetch $REGISTRY_ARTIFACT; see $(stack_rel "$log")"
    return 1
  fi
  if ! unzip -q "$work/download/"*.zip -d "$work/app" >> "$log" 2>&1 \
     || [[ ! -f "$work/app/$(basename "$REGISTRY_JAR")" ]]; then
    rm -rf "$work"
    stack_say "schema-registry: unpacking Apicurio Registry failed; see $(stack_rel "$log")"
    return 1
  fi
  rm -rf "$REGISTRY_CACHE"
  mv "$work/app" "$REGISTRY_CACHE"
  rm -rf "$work"
}

registry_start() {
  local datasource
  mkdir -p "$REGISTRY_HOME/data" "$REGISTRY_HOME/tmp"
  case "$REGISTRY_STORAGE" in
    file) datasource="jdbc:h2:file:$REGISTRY_HOME/data/registry" ;;
    mem) datasource="jdbc:h2:mem:registry" ;;
    *) stack_say "schema-registry: STACK_REGISTRY_STORAGE must be file or mem"; return 1 ;;
  esac
  # Notes on the ccompat API (checked against 3.0.9):
  # - legacy-id-mode=false (default): schema ids are content ids, so the same schema under two
  #   subjects gets one id, as in Confluent's registry. true would return per-version global ids.
  # - JSON schemas need no setting, but Apicurio only recognises content as JSON Schema when it has
  #   a "$schema" mentioning json-schema.org or a top-level "properties" (else error 42201).
  # - Deleting subjects/versions (DELETE /subjects/...) is enabled for tests.
  # Secured (STACK_SECURE, the default): every path asks for HTTP basic authentication of the
  # stack's user (Quarkus' embedded users: Apicurio's own authentication needs an OIDC server). The
  # password reaches the registry in its environment, never on its command line.
  local auth=()
  if stack_secure; then
    auth=(-Dquarkus.http.auth.basic=true
      -Dquarkus.security.users.embedded.enabled=true
      -Dquarkus.security.users.embedded.plain-text=true
      "-Dquarkus.http.auth.permission.all.paths=/*"
      -Dquarkus.http.auth.permission.all.policy=authenticated)
    export "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_${STACK_USER^^}=$(stack_secret registry-password)"
  fi
  # shellcheck disable=SC2086 # heap options are a word list on purpose
  stack_spawn schema-registry "$REGISTRY_HOME" \
    java $REGISTRY_HEAP_OPTS -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
      "$(registry_marker)" \
      -Djava.io.tmpdir="$REGISTRY_HOME/tmp" \
      -Dquarkus.http.host="$STACK_HOST" \
      -Dquarkus.http.port="$REGISTRY_PORT" \
      -Dquarkus.management.host="$STACK_HOST" \
      -Dquarkus.management.port="$REGISTRY_MANAGEMENT_PORT" \
      -Dquarkus.http.access-log.enabled=false \
      -Dapicurio.storage.kind=sql \
      -Dapicurio.storage.sql.kind=h2 \
      -Dapicurio.datasource.url="$datasource" \
      -Dapicurio.datasource.jdbc.initial-size=2 \
      -Dapicurio.datasource.jdbc.min-size=2 \
      -Dapicurio.datasource.jdbc.max-size=20 \
      -Dapicurio.import.work-dir="$REGISTRY_HOME/tmp" \
      -Dapicurio.storage.snapshot.location="$REGISTRY_HOME/tmp" \
      -Dapicurio.rest.deletion.group.enabled=true \
      -Dapicurio.rest.deletion.artifact.enabled=true \
      -Dapicurio.rest.deletion.artifact-version.enabled=true \
      -Dapicurio.ccompat.legacy-id-mode.enabled=false \
      -Dapicurio.ccompat.use-canonical-hash="$REGISTRY_CANONICAL_HASH" \
      "${auth[@]}" \
      -jar "$REGISTRY_JAR"
}

# What stack.env says of the registry beside its URL.
registry_env() {
  stack_secure || return 0
  printf 'SCHEMA_REGISTRY_USERNAME=%s\n' "$STACK_USER"
  printf 'SCHEMA_REGISTRY_PASSWORD=%s\n' "$(stack_secret registry-password)"
}

registry_probe() {
  local code auth=()
  # curl reads the credentials from a config on its standard input, not from its command line.
  if stack_secure; then auth=(-K -); fi
  code="$(printf 'user = "%s:%s"\n' "$STACK_USER" "$(stack_secret registry-password)" \
    | curl -s -o /dev/null -w '%{http_code}' --max-time 3 "${auth[@]}" "$(registry_url)/subjects" 2>/dev/null || true)"
  if [[ "$code" == 200 ]]; then
    echo "GET /apis/ccompat/v7/subjects -> 200"
    return 0
  fi
  echo "GET /apis/ccompat/v7/subjects -> ${code:-no answer}"
  return 1
}
