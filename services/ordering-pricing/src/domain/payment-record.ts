/**
 * How an order came to be paid, kept with it for reconciliation and audit, oldest first:
 * - `processor`: the tenant's payment processor confirmed a capture (a signed notification through
 *   the gateway). The first one is the gateway-confirmed payment the Partner API's
 *   `payment.completed` announces; a later one (another capture for the same order) is kept, and
 *   announces nothing.
 * - `tenant`: the tenant recorded the payment by hand, with its reason: an audited override that
 *   marks the order Paid and claims no gateway confirmation.
 */
export type PaymentRecord =
  | {
      by: 'processor';
      at: Date;
      eventId: string;
      paymentReference: string;
      amountMinor: number;
      occurredAt: Date;
    }
  | { by: 'tenant'; at: Date; reason: string };
