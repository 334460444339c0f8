/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime. Add them here as `NAME: setting('ENV_VAR', ...)`.
 */
export const settings = {};
