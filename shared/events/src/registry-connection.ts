import { loadConfig, optionalStr, url } from '@marketplace/config';

/**
 * How this deployment reaches the schema registry: its Confluent-compatible URL and, behind
 * authentication, HTTP basic (a user and password, as Confluent Cloud's API keys and Apicurio's
 * basic client credentials are given) or a bearer token. A private CA for an https registry is
 * the process's `NODE_EXTRA_CA_CERTS` (Node's own setting; the chart mounts it).
 */
export interface RegistryConnection {
  url: string;
  auth?: { kind: 'basic'; username: string; password: string } | { kind: 'bearer'; token: string };
}

/** The settings; secrets may come from files (`SCHEMA_REGISTRY_PASSWORD_FILE`, `SCHEMA_REGISTRY_TOKEN_FILE`). */
export function registryConnectionSettings() {
  return {
    schemaRegistryUrl: url('SCHEMA_REGISTRY_URL', { protocols: ['http', 'https'] }),
    schemaRegistryUsername: optionalStr('SCHEMA_REGISTRY_USERNAME'),
    schemaRegistryPassword: optionalStr('SCHEMA_REGISTRY_PASSWORD'),
    schemaRegistryToken: optionalStr('SCHEMA_REGISTRY_TOKEN'),
  };
}

type RegistryConnectionValues = ReturnType<typeof loadConfig<ReturnType<typeof registryConnectionSettings>>>;

export function registryConnectionProblems(v: RegistryConnectionValues): string[] {
  const problems: string[] = [];
  if ((v.schemaRegistryUsername === undefined) !== (v.schemaRegistryPassword === undefined))
    problems.push('SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD go together');
  if (v.schemaRegistryToken !== undefined && v.schemaRegistryUsername !== undefined)
    problems.push('SCHEMA_REGISTRY_TOKEN and SCHEMA_REGISTRY_USERNAME are two ways to sign in; set one');
  if (new URL(v.schemaRegistryUrl).username !== '')
    problems.push(
      'SCHEMA_REGISTRY_URL must not carry credentials; use SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD',
    );
  return problems;
}

export function registryConnectionOf(v: RegistryConnectionValues): RegistryConnection {
  if (v.schemaRegistryToken !== undefined)
    return { url: v.schemaRegistryUrl, auth: { kind: 'bearer', token: v.schemaRegistryToken } };
  if (v.schemaRegistryUsername !== undefined && v.schemaRegistryPassword !== undefined)
    return {
      url: v.schemaRegistryUrl,
      auth: { kind: 'basic', username: v.schemaRegistryUsername, password: v.schemaRegistryPassword },
    };
  return { url: v.schemaRegistryUrl };
}

/** Reads the connection from an environment (a script's, a test's): throws naming every problem. */
export function registryConnectionFromEnv(env: Record<string, string | undefined> = process.env): RegistryConnection {
  const values = loadConfig(registryConnectionSettings(), env);
  const problems = registryConnectionProblems(values);
  if (problems.length > 0) throw new Error(`invalid configuration: ${problems.join('; ')}`);
  return registryConnectionOf(values);
}

/** The Authorization header value of a connection, if it signs in. */
export function registryAuthorization(connection: RegistryConnection): string | undefined {
  const auth = connection.auth;
  if (!auth) return undefined;
  if (auth.kind === 'bearer') return `Bearer ${auth.token}`;
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}
