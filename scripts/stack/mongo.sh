# shellcheck shell=bash
# MongoDB wire protocol: mongo-java-server with its H2 file backend, run by our launcher
# (mongo/LocalMongoServer.java), resolved from Maven Central. Sourced by stack.sh (needs lib.sh).

MONGO_SERVER_VERSION=1.47.0

MONGO_PORT="${STACK_MONGO_PORT:-27117}"
# Heap: H2's page cache (16 MB), the in-memory secondary indexes of every database (the test suite
# leaves hundreds of small ones) and netty buffers. At 384 MB, four index-growth tests at once
# spent a quarter of their time in full collections; 768 MB leaves room. The JVM adds about
# 150 MB outside the heap.
MONGO_HEAP_OPTS="${STACK_MONGO_HEAP_OPTS:--Xms128m -Xmx768m}"

MONGO_CACHE="$STACK_CACHE_DIR/mongo-java-server-$MONGO_SERVER_VERSION"
MONGO_CLASSPATH_FILE="$MONGO_CACHE/classpath.txt"
MONGO_SOURCES_DIR="$STACK_SCRIPT_DIR/mongo"
MONGO_HOME="$STACK_DIR/mongo"
MONGO_DATA_FILE="$MONGO_HOME/data/store.mv.db"

mongo_port() { printf '%s' "$MONGO_PORT"; }
mongo_address() { printf '%s:%s' "$STACK_HOST" "$MONGO_PORT"; }
mongo_url() { printf 'mongodb://%s:%s/' "$STACK_HOST" "$MONGO_PORT"; }
mongo_security() { printf '%s' 'none (loopback test engine)'; }
mongo_version() { printf 'mongo-java-server %s (H2)' "$MONGO_SERVER_VERSION"; }
mongo_marker() { printf '%s' "$MONGO_DATA_FILE"; }   # unique to this checkout's .stack
mongo_what() { printf 'a MongoDB wire-protocol ping on %s' "$(mongo_address)"; }
mongo_data_dirs() { printf '%s\n' "$MONGO_HOME"; }

mongo_check_ports() {
  stack_require_free_port mongo "$MONGO_PORT" STACK_MONGO_PORT
}

# The launcher's classes live in a folder named after a hash of its sources, so an edit recompiles.
mongo_classes_dir() {
  local hash
  hash="$(cat "$MONGO_SOURCES_DIR"/*.java | sha256sum | cut -c1-16)"
  printf '%s/launcher-%s' "$MONGO_CACHE" "$hash"
}

mongo_classpath_ok() { stack_classpath_ok "$MONGO_CLASSPATH_FILE"; }

mongo_prepare() {
  local log work classes
  log="$(stack_logfile mongo)"
  classes="$(mongo_classes_dir)"
  mongo_classpath_ok && [[ -d "$classes" ]] && return 0
  command -v mvn >/dev/null || { stack_say "mongo: mvn (Maven) is required to resolve mongo-java-server"; return 1; }
  command -v javac >/dev/null || { stack_say "mongo: javac (a JDK, 17 or later) is required"; return 1; }
  mkdir -p "$MONGO_CACHE" "$STACK_LOG_DIR"
  if ! mongo_classpath_ok; then
    stack_say "mongo: resolving de.bwaldvogel:mongo-java-server-h2-backend:$MONGO_SERVER_VERSION with Maven (first run only)"
    work="$(mktemp -d "$MONGO_CACHE/.resolve.XXXXXX")"
    # Maven runs on a copy of the POM so nothing (e.g. target/) is ever written into the repository.
    cp "$MONGO_SOURCES_DIR/pom.xml" "$work/pom.xml"
    if ! stack_with_maven_lock mvn -B -q -Dstyle.color=never -f "$work/pom.xml" \
          -Dmongo.server.version="$MONGO_SERVER_VERSION" \
          dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" >> "$log" 2>&1; then
      rm -rf "$work"
      stack_say "mongo: Maven could not resolve mongo-java-server $MONGO_SERVER_VERSION; see $(stack_rel "$log")"
      return 1
    fi
    mv -f "$work/classpath.txt" "$MONGO_CLASSPATH_FILE"
    rm -rf "$work"
  fi
  work="$(mktemp -d "$MONGO_CACHE/.compile.XXXXXX")"
  if ! javac -nowarn -d "$work" -cp "$(cat "$MONGO_CLASSPATH_FILE")" "$MONGO_SOURCES_DIR"/*.java >> "$log" 2>&1; then
    rm -rf "$work"
    stack_say "mongo: compiling the launcher (scripts/stack/mongo/*.java) failed; see $(stack_rel "$log")"
    return 1
  fi
  rm -rf "$classes"
  mv "$work" "$classes"
}

# MongoExceptionHandler is off: it logs every client that goes away without saying goodbye (each
# stopped service) with a stack trace. Failed commands are still logged by MongoDatabaseHandler.
mongo_start() {
  mkdir -p "$MONGO_HOME/data"
  # shellcheck disable=SC2086 # heap options are a word list on purpose
  stack_spawn mongo "$MONGO_HOME" \
    java $MONGO_HEAP_OPTS -XX:+UseSerialGC -Djava.awt.headless=true \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -Dorg.slf4j.simpleLogger.showDateTime=true \
      -Dorg.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoExceptionHandler=off \
      -cp "$(mongo_classes_dir):$(cat "$MONGO_CLASSPATH_FILE")" \
      LocalMongoServer "$STACK_HOST" "$MONGO_PORT" "$MONGO_DATA_FILE"
}

mongo_probe() {
  stack_node_probe mongodb "$MONGO_PORT"
}
