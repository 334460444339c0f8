/**
 * The faulty provider's switchable defects. Each breaks exactly one rule of the contract, so the
 * kit can show that the test named for that rule fails, and that no other test notices.
 */
export const DEFECTS = [
  'concurrentReplayDuplicates',
  'eventAfterTerminal',
  'wrongSignature',
  'unknownDeliveryOk',
  'inventedStatus',
  'redirect',
] as const;
export type Defect = (typeof DEFECTS)[number];

/** The kit tests that must fail under each defect, and no other (the catalog's "Defects" section). */
export const DEFECT_CATCHERS: Record<Defect, string[]> = {
  // Concurrent identical creates each make a delivery.
  concurrentReplayDuplicates: ['SDP-IDEM-05'],
  // A driver.location_updated with status on_the_way sent after delivery.delivered.
  eventAfterTerminal: ['SDP-EVENTS-05'],
  // Delivery events signed with another secret; the webhook test's event is still right.
  wrongSignature: ['SDP-EVENTS-01'],
  // GET …/status of an unknown id answers 200 with a made-up status.
  unknownDeliveryOk: ['SDP-STATUS-01'],
  // An extra tracking.updated event with status "en_route" while on the way.
  inventedStatus: ['SDP-EVENTS-03'],
  // A request without Authorization answered 302 to /login.
  redirect: ['SDP-AUTH-01', 'SDP-LIMITS-01'],
};
