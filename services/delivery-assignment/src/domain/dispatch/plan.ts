/**
 * The shapes of an order's dispatch plan (dispatch-plan.ts decides with them); apart so that the
 * delivery document can name them without importing the rules.
 */

/** One line of an order's plan: which installation of a provider connection was chosen, skipped or rescued to, and why. */
export interface PlanLogEntry {
  at: Date;
  installationId: string;
  decision: 'chosen' | 'skipped' | 'rescued';
  reason: string;
}

/**
 * How an order was dispatched by the tenant's rules (POST …/deliveries/{orderId}/dispatch): the
 * ranked installations of its provider connections as the rules were then, those tried, whether a
 * failed dispatch may be rescued and until when, and the log of choices. Absent on an order
 * assigned by hand.
 */
export interface DispatchPlan {
  candidates: string[];
  tried: string[];
  rescue: { enabled: boolean; until: Date | null };
  log: PlanLogEntry[];
}

/** A tenant's dispatch rules: its connections' installations, best first, and rescue. */
export interface DispatchRules {
  /** The tenant id. */
  _id: string;
  connections: string[];
  rescue: { enabled: boolean; withinMinutes: number };
  updatedAt: Date;
}
