/**
 * The Helm chart (deploy/helm/marketplace) as data, without helm: its values (merged as helm
 * merges a values file over the defaults) and the few facts its templates add, read from the
 * template text. `chartProblems` compares that with what the services read; the tests run it on
 * the real chart and on copies with a setting removed, to prove it notices.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { SettingInfo } from './settings';

export const CHART_DIR = 'deploy/helm/marketplace';

type Values = Record<string, any>;

export interface Chart {
  values: Values;
  /** templates/_helpers.tpl, where each service's ConfigMap data is built. */
  helpers: string;
}

/** Helm's merge of a values file over the defaults: maps merge, anything else replaces, null deletes. */
export function coalesce(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = coalesce(out[key], value);
    else out[key] = value;
  }
  return out;
}
const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadChart(root: string, valuesFile?: string): Chart {
  const defaults = parse(readFileSync(join(root, CHART_DIR, 'values.yaml'), 'utf8')) as Values;
  const over = valuesFile ? (parse(readFileSync(join(root, valuesFile), 'utf8')) as Values) : {};
  return {
    values: coalesce(defaults, over),
    helpers: readFileSync(join(root, CHART_DIR, 'templates/_helpers.tpl'), 'utf8'),
  };
}

/** What the ConfigMap template sets on its own: always, and only behind an enabled public ingress. */
export const DERIVED = { always: ['HOST', 'PORT', 'TRUST_PROXY'] };
/** The ingress key that makes a service public (templates/_helpers.tpl, marketplace.publicIngress). */
export const PUBLIC_INGRESS: Record<string, string> = {
  'gateway-auth': 'partner',
  'provider-delivery': 'provider',
  'delivery-assignment': 'partner',
};
/**
 * The setting the template derives from a public service's ingress host (https://<host>): its own
 * public address, or for delivery-assignment the base of the providers' callback URLs.
 */
export const PUBLIC_BASE_VARIABLE: Record<string, string> = {
  'gateway-auth': 'PUBLIC_BASE_URL',
  'provider-delivery': 'PUBLIC_BASE_URL',
  'delivery-assignment': 'PLATFORM_CALLBACK_BASE_URL',
};

/** A service's block: serviceDefaults with its own merged over them, as the templates do. */
export function serviceValues(chart: Chart, service: string): Values {
  return coalesce(chart.values.serviceDefaults ?? {}, chart.values.services?.[service] ?? {});
}

/** Every variable the chart gives a service, plain (ConfigMap) or secret (secretKeyRef). */
export function chartEnvironment(chart: Chart, service: string): { plain: Set<string>; secret: Set<string> } {
  const svc = serviceValues(chart, service);
  const derivedInTemplate = (name: string) =>
    chart.helpers.includes(`set $data "${name}"`) || chart.helpers.includes(`"${name}"`);
  const ingressKey = PUBLIC_INGRESS[service];
  const isPublic = ingressKey !== undefined && chart.values.ingress?.[ingressKey]?.enabled === true;
  const plain = new Set([
    ...Object.keys(chart.values.env ?? {}),
    ...Object.keys(svc.env ?? {}),
    ...Object.keys(svc.serviceUrls ?? {}),
    ...[...DERIVED.always, ...(isPublic ? [PUBLIC_BASE_VARIABLE[service]!] : [])].filter(derivedInTemplate),
  ]);
  const secret = new Set([...Object.keys(chart.values.secretEnv ?? {}), ...Object.keys(svc.secretEnv ?? {})]);
  return { plain, secret };
}

/** Keys, and the connection strings that carry credentials: only ever from a Secret. */
export const isSecret = (s: SettingInfo) =>
  s.builder === 'base64Key' ||
  /SECRET|PRIVATE_KEY|PUBLIC_KEY/.test(s.variable) ||
  ['MONGO_URL', 'REDIS_URL'].includes(s.variable);

/** A default that points at this machine: wrong in a pod (HOST, or another service's URL). */
export const pointsAtLoopback = (s: SettingInfo) => /127\.0\.0\.1|localhost/.test(s.defaultText ?? '');
/**
 * Loopback defaults a cluster may keep: PUBLIC_BASE_URL is the ingress host's when one is enabled
 * (required then, below); without one, operators reach the service by port-forward, at loopback.
 */
const LOOPBACK_DEFAULT_KEPT = ['PUBLIC_BASE_URL', 'PLATFORM_CALLBACK_BASE_URL'];

/**
 * What is wrong between the chart and the services' settings, one sentence each: a setting a
 * service requires (or whose default only works on one machine) that the chart does not set,
 * a variable the chart sets that the service does not read, a secret in a ConfigMap.
 */
export function chartProblems(chart: Chart, settingsOf: Record<string, SettingInfo[]>): string[] {
  const problems: string[] = [];
  for (const [service, settings] of Object.entries(settingsOf)) {
    const { plain, secret } = chartEnvironment(chart, service);
    const given = new Set([...plain, ...secret]);
    for (const s of settings) {
      const needed = s.required || (pointsAtLoopback(s) && !LOOPBACK_DEFAULT_KEPT.includes(s.variable));
      if (needed && !given.has(s.variable))
        problems.push(
          `${service}: ${s.variable} is ${s.required ? 'required' : 'set to a loopback default'} by the service and not set by the chart`,
        );
    }
    const ingressKey = PUBLIC_INGRESS[service];
    const baseVariable = PUBLIC_BASE_VARIABLE[service];
    if (ingressKey && chart.values.ingress?.[ingressKey]?.enabled && baseVariable && !plain.has(baseVariable))
      problems.push(`${service}: behind the ${ingressKey} ingress without ${baseVariable}`);
    const known = new Set(settings.map((s) => s.variable));
    for (const variable of given)
      if (!known.has(variable))
        problems.push(`${service}: the chart sets ${variable}, which the service does not read`);
    for (const s of settings)
      if (isSecret(s) && plain.has(s.variable)) problems.push(`${service}: ${s.variable} is a secret, in a ConfigMap`);
  }
  return problems;
}
