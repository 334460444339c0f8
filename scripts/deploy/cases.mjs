// What `npm run deploy:check` renders (VARIANTS) and what it must see refused (BAD_VALUES).
// Each bad value is one an operator could plausibly write; `expect` is what the refusal must name.
// A variant's `on` lists the optional objects it must render (and only those): the PrometheusRule
// (`prometheusRule`), the dashboard ConfigMap (`grafanaDashboard`) and the `helm test` Pod (`tests`).
const production = ['-f', 'deploy/helm/values-production.yaml'];
const set = (...pairs) => pairs.flatMap((pair) => ['--set', pair]);

export const VARIANTS = [
  { name: 'defaults', args: [], on: ['tests'] },
  { name: 'production', args: production, on: ['prometheusRule', 'grafanaDashboard', 'tests'] },
  {
    // every optional part on: Strimzi topics, the admin ingress on a class of its own, the alert
    // rules and the dashboard with their own labels and annotations
    name: 'production-all-options',
    args: [
      ...production,
      ...set(
        'topics.mode=strimzi',
        'topics.strimzi.cluster=main',
        'ingress.admin.enabled=true',
        'ingress.admin.className=nginx-internal',
        'ingress.admin.host=admin.marketplace.example.com',
        'ingress.admin.tlsSecretName=marketplace-admin-tls',
        'metrics.prometheusRule.labels.team=marketplace',
        'metrics.prometheusRule.runbookBaseUrl=https://git.example.com/marketplace/-/blob/v0.1.0/',
        'metrics.grafanaDashboard.label=grafana.example.com/dashboard',
        'metrics.grafanaDashboard.labelValue=marketplace',
        'metrics.grafanaDashboard.annotations.grafana_folder=Marketplace',
        'tests.image=registry.example.com/mirror/busybox:1.37.0',
        // a managed Kafka (SASL_SSL, SCRAM) with its CA mounted, an authenticated registry, Redis Sentinel with an ACL user
        'tlsFiles.secret=marketplace-tls',
        'env.KAFKA_SECURITY_PROTOCOL=SASL_SSL',
        'env.KAFKA_SASL_MECHANISM=SCRAM-SHA-512',
        'env.KAFKA_SASL_USERNAME=marketplace',
        'env.KAFKA_SSL_CA_FILE=/etc/marketplace/tls/kafka-ca.pem',
        'secretEnv.KAFKA_SASL_PASSWORD=connections',
        'env.SCHEMA_REGISTRY_USERNAME=marketplace',
        'secretEnv.SCHEMA_REGISTRY_PASSWORD=connections',
        'env.REDIS_SENTINELS=redis-sentinel-0.redis:26379\\,redis-sentinel-1.redis:26379',
        'secretEnv.REDIS_URL=null',
        'env.REDIS_SENTINEL_MASTER=marketplace',
        'env.REDIS_USERNAME=marketplace',
        'secretEnv.REDIS_PASSWORD=connections',
      ),
    ],
    on: ['prometheusRule', 'grafanaDashboard', 'tests'],
  },
  {
    // every optional part off
    name: 'minimal',
    args: set(
      'networkPolicy.enabled=false',
      'serviceDefaults.autoscaling.enabled=false',
      'topics.mode=none',
      'tests.enabled=false',
    ),
    on: [],
  },
];

export const BAD_VALUES = [
  { name: 'a port that is not a number', args: set('services.catalog.port=http'), expect: /services\/catalog\/port/ },
  {
    name: 'a port a non-root user cannot bind',
    args: set('services.catalog.port=80'),
    expect: /services\/catalog\/port/,
  },
  {
    name: 'a secret value among the plain settings',
    args: set('env.API_KEY_HASH_SECRET=c2VjcmV0'),
    expect: /env\/API_KEY_HASH_SECRET/,
  },
  {
    name: 'a Kafka password among the plain settings',
    args: set('env.KAFKA_SASL_PASSWORD=hunter2'),
    expect: /env\/KAFKA_SASL_PASSWORD/,
  },
  {
    name: 'a Kafka security protocol Kafka does not know',
    args: set('env.KAFKA_SECURITY_PROTOCOL=TLS'),
    expect: /env\/KAFKA_SECURITY_PROTOCOL/,
  },
  {
    name: 'a key pasted where a Secret name belongs',
    args: set('secrets.gateway=Zm9v+YmFy/=='),
    expect: /secrets\/gateway/,
  },
  {
    name: 'a secret the gateway requires, removed',
    args: set('services.gateway-auth.secretEnv.API_KEY_HASH_SECRET=null'),
    expect: /services\/gateway-auth\/secretEnv[\s\S]*API_KEY_HASH_SECRET/,
  },
  {
    name: 'an ingress without its TLS secret',
    args: set('ingress.partner.enabled=true', 'ingress.partner.host=api.example.com'),
    expect: /ingress\/partner[\s\S]*tlsSecretName/,
  },
  { name: 'the image tag latest', args: set('image.tag=latest'), expect: /image\.tag: latest is refused/ },
  { name: 'the test image tag latest', args: set('tests.image=busybox:latest'), expect: /tests\/image/ },
  { name: 'a test image without a tag', args: set('tests.image=busybox'), expect: /tests\/image/ },
  {
    name: 'a PrometheusRule switch that is not a boolean',
    args: set('metrics.prometheusRule.enabled=yes'),
    expect: /metrics\/prometheusRule\/enabled/,
  },
  {
    name: 'a dashboard switch that is not a boolean',
    args: set('metrics.grafanaDashboard.enabled=on'),
    expect: /metrics\/grafanaDashboard\/enabled/,
  },
  {
    name: 'a runbook base that is not a URL',
    args: set(
      'metrics.prometheusRule.enabled=true',
      'metrics.prometheusRule.runbookBaseUrl=git.example.com/marketplace',
    ),
    expect: /metrics\/prometheusRule\/runbookBaseUrl/,
  },
  {
    name: 'a dashboard label that is no label key',
    args: set('metrics.grafanaDashboard.enabled=true', 'metrics.grafanaDashboard.label=grafana dashboard'),
    expect: /metrics\/grafanaDashboard\/label/,
  },
  {
    name: 'network policies with no way to the dependencies',
    args: ['--set-json', 'networkPolicy.dependencies=[]'],
    expect: /networkPolicy\.dependencies: empty/,
  },
  { name: 'a misspelt key', args: set('serviceDefaults.autoscalling.enabled=true'), expect: /autoscalling/ },
  { name: 'an unknown topic mode', args: set('topics.mode=jobs'), expect: /topics\/mode/ },
  { name: 'a replication factor of 0', args: set('topics.replicationFactor=0'), expect: /topics\/replicationFactor/ },
  { name: 'an unknown log level', args: set('env.LOG_LEVEL=verbose'), expect: /env\/LOG_LEVEL/ },
  {
    name: 'more minimum than maximum replicas',
    args: set('services.catalog.autoscaling.minReplicas=5'),
    expect: /catalog: autoscaling\.minReplicas \(5\) is above maxReplicas \(3\)/,
  },
];
