/**
 * What assigning needs to know of an installation (from the installations topic), and whether the
 * tenant may hand it a delivery. Every refusal is 422 with its own code (README, "What the tenant
 * may assign").
 */
export interface InstallationFacts {
  connected: boolean;
  scopes: string[];
  /** The callback URL of its contract version; null when it has none. Absent from copies kept before it was. */
  webhookUrl?: string | null;
  /** The event types of its contract version. Absent from copies kept before it was. */
  subscribedEvents?: string[];
  /** It holds a webhook signing secret (minted at connect when the version subscribes to events). */
  hasWebhookSecret?: boolean;
}

/** The event a delivery provider learns of its work by: required (spec, Integration types). */
export const DELIVERY_ASSIGNED = 'delivery.assigned';

export interface Ineligibility {
  code: string;
  message: string;
}

/**
 * Why the installation cannot take an assignment, or undefined when it can: it must be connected,
 * hold Delivery.Accept, and be told by webhook (subscribed to delivery.assigned, with a webhook
 * URL and a signing secret, as the webhook sender requires to send it). A copy kept before the
 * webhook fields were copied cannot tell, and is refused until the installation's next event.
 */
export function assignIneligibility(installation: InstallationFacts): Ineligibility | undefined {
  if (!installation.connected)
    return { code: 'delivery.installation_not_connected', message: 'The installation is not connected.' };
  if (!installation.scopes.includes('Delivery.Accept'))
    return {
      code: 'delivery.installation_lacks_scope',
      message: 'The installation does not hold the scope Delivery.Accept.',
    };
  const missing = [
    ...(installation.subscribedEvents?.includes(DELIVERY_ASSIGNED)
      ? []
      : [`it is not subscribed to ${DELIVERY_ASSIGNED}`]),
    ...(installation.webhookUrl ? [] : ['it has no webhook URL']),
    ...(installation.hasWebhookSecret ? [] : ['it has no webhook signing secret']),
  ];
  if (missing.length > 0)
    return {
      code: 'delivery.provider_not_notifiable',
      message: `The installation cannot be told of the assignment: ${missing.join(', ')}.`,
    };
  return undefined;
}
