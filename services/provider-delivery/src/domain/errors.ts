import { AppError, conflict, notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { shiftErrors, type Shift } from './driver';
import type { Capabilities, PlatformAccount } from './platform-account';

// The contract's refusals that several use cases answer alike.

/** Unknown or another account's delivery: the same 404 (the contract's `delivery.not_found`). */
export const deliveryNotFound = () => notFound('delivery.not_found', 'No such delivery.');

/** Unknown or another account's driver: the same 404. */
export const driverNotFound = () => notFound('driver.not_found', 'No such driver.');

/** 422 `request.invalid` with the fields: the provider contract's answer to invalid fields. */
export const invalidFields = (fieldErrors: FieldErrors) =>
  new AppError('unprocessable', 'request.invalid', 'The request is invalid.', { fieldErrors });

/** A courier's answer to an offer that is no longer theirs. */
export const offerGone = () =>
  conflict('offer.not_available', 'The offer is no longer yours: it ran out, was answered, or the delivery moved on.');

const CAPABILITY_NAMES: Partial<Record<keyof Capabilities, string>> = {
  supportsUpdates: 'updates',
  supportsCancellation: 'cancellation',
  supportsReturnToOrigin: 'return to origin (supportsReturnToOrigin)',
};

/** 403 `auth.forbidden` when the account's capabilities do not include the endpoint's. */
export function requireCapability(account: PlatformAccount, capability: keyof Capabilities): void {
  if (!account.capabilities[capability])
    throw new AppError(
      'forbidden',
      'auth.forbidden',
      `The ${CAPABILITY_NAMES[capability] ?? capability} capability is not enabled for this account.`,
    );
}

/** 400 `request.invalid` when a driver's shift breaks its rules (domain/driver.ts `shiftErrors`). */
export function requireValidShift(shift: Shift | null | undefined): void {
  const errors = shiftErrors(shift);
  if (errors) throw validationError('request.invalid', 'The request is invalid.', errors);
}
