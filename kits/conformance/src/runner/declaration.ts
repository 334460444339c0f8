import { readFileSync } from 'node:fs';
import { CAPABILITIES, type Declaration } from '../model';
import { CONTRACT, isStatus } from '../spec';

const UPDATE_FIELDS = [
  'dropoff',
  'customerPhone',
  'customerName',
  'customerEmail',
  'notes',
  'amount',
  'currency',
  'paymentMethod',
  'deliveryFeeAmount',
  'preparationTimeMinutes',
  'scheduledDeliveryAtUtc',
];
const CLAIMABLE = [...CAPABILITIES.filter((capability) => capability !== 'core'), 'supportsProofOfDelivery'];
const STAGES = ['before_pickup', 'after_pickup'];
const OUTCOMES = ['confirmed', 'refused'];

/** A declaration that cannot be used: every problem found, one a line. */
export class DeclarationError extends Error {
  constructor(
    readonly problems: string[],
    source = 'the declaration',
  ) {
    super(`${source} is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'DeclarationError';
  }
}

type Problems = string[];
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function checkPoint(value: unknown, where: string, problems: Problems): void {
  if (!isObject(value)) return void problems.push(`${where} must be an object { lat, lng, address }`);
  if (typeof value.lat !== 'number' || value.lat < -90 || value.lat > 90)
    problems.push(`${where}.lat must be a number from -90 to 90`);
  if (typeof value.lng !== 'number' || value.lng < -180 || value.lng > 180)
    problems.push(`${where}.lng must be a number from -180 to 180`);
  if (!isText(value.address)) problems.push(`${where}.address must be a non-empty string`);
}

function checkStatusList(value: unknown, where: string, problems: Problems): void {
  if (!Array.isArray(value)) return void problems.push(`${where} must be an array of statuses`);
  for (const status of value)
    if (!isStatus(status)) problems.push(`${where}: "${String(status)}" is not a status of the vocabulary`);
}

/** Checks a map keyed by status (or by `keys`), each value by `checkValue`. */
function checkMap(
  value: unknown,
  where: string,
  problems: Problems,
  checkValue: (entry: unknown, at: string) => void,
  keys?: string[],
): void {
  if (value === undefined) return;
  if (!isObject(value)) return void problems.push(`${where} must be an object`);
  for (const [key, entry] of Object.entries(value)) {
    const known = keys ? keys.includes(key) : isStatus(key);
    if (!known)
      problems.push(`${where}: "${key}" is not ${keys ? `one of ${keys.join(', ')}` : 'a status of the vocabulary'}`);
    checkValue(entry, `${where}.${key}`);
  }
}

function checkHeader(value: Record<string, unknown>, problems: Problems): void {
  if (!isText(value.provider)) problems.push("provider must be a non-empty string (the provider's name)");
  const contract = value.contract;
  if (!isObject(contract) || !isText(contract.version) || !isText(contract.revision))
    problems.push('contract must be { "version": "1.1.0", "revision": "2026-09-19" }');
  else if (contract.version !== CONTRACT.version || contract.revision !== CONTRACT.revision) {
    problems.push(
      `contract: this kit certifies ${CONTRACT.version} (revision ${CONTRACT.revision}), the declaration names ${contract.version} (revision ${contract.revision})`,
    );
  }
  checkMap(
    value.capabilities ?? null,
    'capabilities',
    problems,
    (entry, at) => void (typeof entry !== 'boolean' && problems.push(`${at} must be true or false`)),
    CLAIMABLE,
  );
  if (!isObject(value.area)) problems.push('area must be { pickup, dropoff, outside? }');
  else {
    checkPoint(value.area.pickup, 'area.pickup', problems);
    checkPoint(value.area.dropoff, 'area.dropoff', problems);
    if (value.area.outside !== undefined) checkPoint(value.area.outside, 'area.outside', problems);
  }
  const sandbox = value.sandbox;
  if (!isObject(sandbox))
    problems.push('sandbox must be { "lifecycleTimeoutSeconds": N, "holdPreparationMinutes": N }');
  else {
    if (typeof sandbox.lifecycleTimeoutSeconds !== 'number' || !(sandbox.lifecycleTimeoutSeconds > 0))
      problems.push('sandbox.lifecycleTimeoutSeconds must be a number above 0');
    if (!Number.isInteger(sandbox.holdPreparationMinutes) || (sandbox.holdPreparationMinutes as number) < 0)
      problems.push('sandbox.holdPreparationMinutes must be an integer of 0 or more');
  }
}

function checkRules(value: Record<string, unknown>, problems: Problems): void {
  const extra = value.extraEventTypes;
  if (extra !== undefined && (!Array.isArray(extra) || !extra.every(isText)))
    problems.push('extraEventTypes must be an array of event type names');
  checkMap(value.transitions, 'transitions', problems, (entry, at) => checkStatusList(entry, at, problems));
  checkMap(value.cancellation, 'cancellation', problems, (entry, at) =>
    checkMap(
      entry,
      at,
      problems,
      (outcome, where) =>
        void (!OUTCOMES.includes(outcome as string) && problems.push(`${where} must be "confirmed" or "refused"`)),
      STAGES,
    ),
  );
  checkMap(
    value.returns,
    'returns',
    problems,
    (outcome, at) =>
      void (!OUTCOMES.includes(outcome as string) && problems.push(`${at} must be "confirmed" or "refused"`)),
  );
  checkMap(value.updates, 'updates', problems, (entry, at) => checkStatusList(entry, at, problems), UPDATE_FIELDS);
  const webhookTest = value.webhookTest;
  if (webhookTest !== undefined && (!isObject(webhookTest) || !['url', 'empty'].includes(webhookTest.body as string))) {
    problems.push('webhookTest must be { "body": "url" } or { "body": "empty" }');
  }
}

/** Validates a parsed declaration; throws a DeclarationError naming every problem. */
export function validateDeclaration(value: unknown, source?: string): Declaration {
  if (!isObject(value)) throw new DeclarationError(['it must be a JSON object'], source);
  const problems: Problems = [];
  checkHeader(value, problems);
  checkRules(value, problems);
  if (problems.length > 0) throw new DeclarationError(problems, source);
  return value as unknown as Declaration;
}

/** Reads and validates a declaration file. */
export function loadDeclaration(file: string): Declaration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DeclarationError([`cannot read it: ${(error as Error).message}`], `the declaration ${file}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DeclarationError([`it is not JSON: ${(error as Error).message}`], `the declaration ${file}`);
  }
  return validateDeclaration(parsed, `the declaration ${file}`);
}
