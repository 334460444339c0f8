# shellcheck shell=bash
# Kafka: single-node KRaft (combined broker + controller), run straight from the Maven Central jars.
# Sourced by stack.sh (needs lib.sh).
#
# The 4.x line by default. STACK_KAFKA_VERSION=3.9.2 runs the 3.9 line instead (CI's second broker
# version): the two lines differ in their logging backend (log4j2 from 4.0, reload4j before), so
# each major version has its own POM and log configuration below, and its own data folder.

KAFKA_DEFAULT_VERSION=4.4.0
KAFKA_VERSION="${STACK_KAFKA_VERSION:-$KAFKA_DEFAULT_VERSION}"
KAFKA_SCALA_VERSION=2.13
KAFKA_MAJOR="${KAFKA_VERSION%%.*}"

KAFKA_PORT="${STACK_KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${STACK_KAFKA_CONTROLLER_PORT:-19093}"
# Secured (STACK_SECURE, the default): clients on SASL_SSL at KAFKA_PORT (SCRAM-SHA-512,
# SCRAM-SHA-256 or PLAIN, a certificate from the stack's CA); the broker's own traffic to itself
# (transaction markers) on a plaintext loopback listener of its own.
KAFKA_INTERNAL_PORT="${STACK_KAFKA_INTERNAL_PORT:-19094}"
KAFKA_HEAP_OPTS="${STACK_KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"

KAFKA_CACHE="$STACK_CACHE_DIR/kafka-$KAFKA_VERSION"
KAFKA_CLASSPATH_FILE="$KAFKA_CACHE/classpath.txt"
KAFKA_HOME="$STACK_DIR/kafka-$KAFKA_MAJOR"   # storage formatted by one major version stays with it
KAFKA_CONFIG="$KAFKA_HOME/server.properties"

kafka_port() { printf '%s' "$KAFKA_PORT"; }
kafka_port_var() { printf 'STACK_KAFKA_PORT'; }
kafka_address() { printf '%s:%s' "$STACK_HOST" "$KAFKA_PORT"; }
kafka_url() { kafka_address; }
kafka_security() { if stack_secure; then printf '%s' "SASL_SSL SCRAM-SHA-512, PLAIN; stack CA"; else printf '%s' 'PLAINTEXT'; fi; }
kafka_version() { printf '%s' "$KAFKA_VERSION"; }
# Any version's Kafka of this checkout's .stack (the folder is kafka-<major>), so `down` stops one
# started by another version; kafka_outdated tells `up` to replace it.
kafka_marker() { printf '%s' "$STACK_DIR/kafka"; }
kafka_outdated() {
  local pid="$1"
  [[ -n "$pid" ]] || return 1
  local cmdline
  cmdline="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" != *"kafka_$KAFKA_SCALA_VERSION-$KAFKA_VERSION.jar"* || "$cmdline" != *"$KAFKA_CONFIG"* ]]
}
kafka_what() { printf 'a Kafka metadata request (describeCluster) on %s' "$(kafka_address)"; }
kafka_data_dirs() { printf '%s\n' "$KAFKA_HOME"; }

kafka_classpath_ok() { stack_classpath_ok "$KAFKA_CLASSPATH_FILE"; }

kafka_prepare() {
  if stack_secure; then stack_server_cert kafka || return 1; fi
  kafka_classpath_ok && return 0
  command -v mvn >/dev/null || { stack_say "kafka: mvn (Maven) is required to resolve Kafka jars"; return 1; }
  command -v java >/dev/null || { stack_say "kafka: java is required"; return 1; }
  local log work
  log="$(stack_logfile kafka)"
  mkdir -p "$KAFKA_CACHE" "$STACK_LOG_DIR"
  stack_say "kafka: resolving org.apache.kafka:kafka_$KAFKA_SCALA_VERSION:$KAFKA_VERSION with Maven (first run only)"
  work="$(mktemp -d "$KAFKA_CACHE/.resolve.XXXXXX")"
  # Run Maven on a copy of the POM so nothing (e.g. target/) is ever written into the repository.
  if [[ "$KAFKA_MAJOR" -ge 4 ]]; then
    cp "$STACK_SCRIPT_DIR/maven/pom.xml" "$work/pom.xml"
  else
    cp "$STACK_SCRIPT_DIR/maven/pom-kafka3.xml" "$work/pom.xml"
  fi
  if ! stack_with_maven_lock mvn -B -q -Dstyle.color=never -f "$work/pom.xml" \
        -Dkafka.version="$KAFKA_VERSION" \
        dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" >> "$log" 2>&1; then
    rm -rf "$work"
    stack_say "kafka: Maven could not resolve Kafka $KAFKA_VERSION; see $(stack_rel "$log")"
    return 1
  fi
  mv -f "$work/classpath.txt" "$KAFKA_CLASSPATH_FILE"
  rm -rf "$work"
  kafka_classpath_ok
}

kafka_write_config() {
  mkdir -p "$KAFKA_HOME/data"
  local listeners
  if stack_secure; then
    local password keystore_password
    password="$(stack_secret kafka-password)"
    keystore_password="$(stack_secret kafka-keystore)"
    listeners="$(cat <<EOF
listeners=SASL_SSL://$STACK_HOST:$KAFKA_PORT,INTERNAL://$STACK_HOST:$KAFKA_INTERNAL_PORT,CONTROLLER://$STACK_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=SASL_SSL://$STACK_HOST:$KAFKA_PORT,INTERNAL://$STACK_HOST:$KAFKA_INTERNAL_PORT
listener.security.protocol.map=SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=INTERNAL
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256,PLAIN
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$STACK_USER="$password";
ssl.keystore.type=PKCS12
ssl.keystore.location=$STACK_SECRETS_DIR/kafka.p12
ssl.keystore.password=$keystore_password
ssl.client.auth=none
EOF
)"
  else
    listeners="$(cat <<EOF
listeners=PLAINTEXT://$STACK_HOST:$KAFKA_PORT,CONTROLLER://$STACK_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$STACK_HOST:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
EOF
)"
  fi
  (umask 077; cat > "$KAFKA_CONFIG" <<EOF
# Generated by scripts/stack/kafka.sh on every start; edit that script instead.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$STACK_HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
$listeners
log.dirs=$KAFKA_HOME/data

# single node, test friendly
auto.create.topics.enable=false
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
group.initial.rebalance.delay.ms=0
delete.topic.enable=true
num.network.threads=2
num.io.threads=4
log.retention.hours=168
log.segment.bytes=104857600
EOF
  )
  if [[ "$KAFKA_MAJOR" -ge 4 ]]; then
    cat > "$KAFKA_HOME/log4j2.properties" <<'EOF'
# Generated by scripts/stack/kafka.sh. Everything goes to stdout = .stack/logs/kafka.log.
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.channel.name = kafka.network.RequestChannel$
logger.channel.level = WARN
logger.state.name = state.change.logger
logger.state.level = WARN
logger.cleaner.name = kafka.log.LogCleaner
logger.cleaner.level = WARN
logger.storage.name = org.apache.kafka.storage.internals.log
logger.storage.level = WARN
logger.log.name = kafka.log
logger.log.level = WARN
logger.clients.name = org.apache.kafka.clients
logger.clients.level = WARN
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = WARN
EOF
  else
    cat > "$KAFKA_HOME/log4j.properties" <<'EOF'
# Generated by scripts/stack/kafka.sh. Everything goes to stdout = .stack/logs/kafka.log.
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.org.apache.kafka.storage.internals.log=WARN
log4j.logger.kafka.log=WARN
log4j.logger.org.apache.kafka.clients=WARN
log4j.logger.org.apache.kafka.common.config.AbstractConfig=WARN
EOF
  fi
}

# Fills KAFKA_JAVA with the java command line (without main class).
kafka_java_cmd() {
  # shellcheck disable=SC2206 # heap options are a word list on purpose
  KAFKA_JAVA=(java $KAFKA_HEAP_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -Djava.awt.headless=true
    -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties"
    -Dlog4j2.configurationFile="$KAFKA_HOME/log4j2.properties"
    -Dkafka.logs.dir="$STACK_LOG_DIR"
    -cp "$(cat "$KAFKA_CLASSPATH_FILE")")
}

kafka_check_ports() {
  stack_require_free_port kafka "$KAFKA_PORT" STACK_KAFKA_PORT \
    && stack_require_free_port kafka "$KAFKA_CONTROLLER_PORT" STACK_KAFKA_CONTROLLER_PORT \
    && { ! stack_secure || stack_require_free_port kafka "$KAFKA_INTERNAL_PORT" STACK_KAFKA_INTERNAL_PORT; }
}

kafka_start() {
  local log
  log="$(stack_logfile kafka)"
  kafka_write_config
  kafka_java_cmd
  # The SCRAM users are written at format time (KRaft); storage formatted without them (the stack
  # run plain before) is formatted again: the local stack's data is disposable.
  local users_marker="$KAFKA_HOME/data/.stack-users"
  if [[ -f "$KAFKA_HOME/data/meta.properties" ]] && stack_secure && [[ ! -f "$users_marker" ]]; then
    stack_say "kafka: storage has no SCRAM users yet; formatting it again"
    rm -rf "$KAFKA_HOME/data" && mkdir -p "$KAFKA_HOME/data"
  fi
  if [[ ! -f "$KAFKA_HOME/data/meta.properties" ]]; then
    local cluster_id
    # Kafka cluster ids are 16 random bytes, base64url without padding (what `kafka-storage random-uuid` prints).
    # Like Kafka's own Uuid.randomUuid, never one that starts with '-': the storage tool's argument
    # parser would take it for an option and refuse to format (one fresh machine in 64).
    cluster_id="-"
    while [[ "$cluster_id" == -* ]]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    stack_say "kafka: formatting storage (cluster id $cluster_id)"
    local scram=()
    if stack_secure; then
      local password
      password="$(stack_secret kafka-password)"
      scram=(--add-scram "SCRAM-SHA-512=[name=$STACK_USER,password=$password]"
             --add-scram "SCRAM-SHA-256=[name=$STACK_USER,password=$password]")
    fi
    # The command line holds the password for the moment of the format; its log line does not.
    if ! "${KAFKA_JAVA[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_CONFIG" --ignore-formatted \
          "${scram[@]}" >> "$log" 2>&1 < /dev/null; then
      stack_say "kafka: storage format failed; see $(stack_rel "$log")"
      return 1
    fi
    if stack_secure; then touch "$users_marker"; fi
  fi
  stack_spawn kafka "$KAFKA_HOME" "${KAFKA_JAVA[@]}" kafka.Kafka "$KAFKA_CONFIG"
}

kafka_probe() {
  if stack_secure; then
    STACK_PROBE_CA_FILE="$STACK_SECRETS_DIR/ca.pem" STACK_PROBE_USER="$STACK_USER" \
      STACK_PROBE_PASSWORD_FILE="$STACK_SECRETS_DIR/kafka-password" stack_node_probe kafka "$KAFKA_PORT"
  else
    stack_node_probe kafka "$KAFKA_PORT"
  fi
}

# What stack.env says of Kafka beside its address: the secured stack's settings.
kafka_env() {
  stack_secure || return 0
  printf 'KAFKA_SECURITY_PROTOCOL=SASL_SSL\n'
  printf 'KAFKA_SASL_MECHANISM=SCRAM-SHA-512\n'
  printf 'KAFKA_SASL_USERNAME=%s\n' "$STACK_USER"
  printf 'KAFKA_SASL_PASSWORD=%s\n' "$(stack_secret kafka-password)"
  printf 'KAFKA_SSL_CA_FILE=%s\n' "$STACK_SECRETS_DIR/ca.pem"
}
