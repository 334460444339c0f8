import type { CancelStage, Declaration, Outcome, Point, Status, UpdateField } from '../../../src/model';
import declarationJson from './declaration.json';

/**
 * What the faulty provider declares (declaration.json), and the policy it reads from there: the
 * provider's cancellation outcomes, return outcomes and update rules ARE its declaration, so a
 * clean run shows the kit checks what was declared, and nothing else.
 */
export const FAULTY_PROVIDER_DECLARATION = declarationJson as unknown as Declaration;

/** The service area: a box around the declared pickup and drop-off, 0.1° (about 10 km) wide on each side. */
const MARGIN_DEGREES = 0.1;
const corners: Point[] = [FAULTY_PROVIDER_DECLARATION.area.pickup, FAULTY_PROVIDER_DECLARATION.area.dropoff];
const AREA = {
  minLat: Math.min(...corners.map((p) => p.lat)) - MARGIN_DEGREES,
  maxLat: Math.max(...corners.map((p) => p.lat)) + MARGIN_DEGREES,
  minLng: Math.min(...corners.map((p) => p.lng)) - MARGIN_DEGREES,
  maxLng: Math.max(...corners.map((p) => p.lng)) + MARGIN_DEGREES,
};

export const inServiceArea = (lat: number, lng: number): boolean =>
  lat >= AREA.minLat && lat <= AREA.maxLat && lng >= AREA.minLng && lng <= AREA.maxLng;

export const cancellationOutcome = (status: Status, stage: CancelStage): Outcome =>
  FAULTY_PROVIDER_DECLARATION.cancellation?.[status]?.[stage] ?? 'refused';

export const returnOutcome = (status: Status): Outcome => FAULTY_PROVIDER_DECLARATION.returns?.[status] ?? 'refused';

export const updateAllowed = (field: UpdateField, status: Status): boolean =>
  FAULTY_PROVIDER_DECLARATION.updates?.[field]?.includes(status) ?? false;
