import { assignIneligibility, type InstallationFacts } from './installation';

const provider: InstallationFacts = {
  connected: true,
  scopes: ['Delivery.Accept', 'Delivery.Reject', 'Orders.Read'],
  webhookUrl: 'https://provider.example.com/hooks',
  subscribedEvents: ['delivery.assigned', 'delivery.cancelled'],
  hasWebhookSecret: true,
};
const codeOf = (installation: InstallationFacts) => assignIneligibility(installation)?.code;

describe('which installation the tenant may assign a delivery to', () => {
  it('a connected installation with Delivery.Accept, subscribed to delivery.assigned, with a URL and a secret', () => {
    expect(assignIneligibility(provider)).toBeUndefined();
  });

  it('not connected, then without Delivery.Accept, in that order', () => {
    expect(codeOf({ ...provider, connected: false, scopes: [] })).toBe('delivery.installation_not_connected');
    expect(codeOf({ ...provider, scopes: ['Orders.Read'], subscribedEvents: [] })).toBe(
      'delivery.installation_lacks_scope',
    );
  });

  it.each([
    ['not subscribed to delivery.assigned', { subscribedEvents: ['delivery.cancelled'] }, 'delivery.assigned'],
    ['without a webhook URL', { webhookUrl: null }, 'no webhook URL'],
    ['without a signing secret', { hasWebhookSecret: false }, 'no webhook signing secret'],
    [
      'a copy kept before the webhook fields were',
      { webhookUrl: undefined, subscribedEvents: undefined, hasWebhookSecret: undefined },
      'delivery.assigned',
    ],
  ])('cannot be told (%s): delivery.provider_not_notifiable', (_what, change, says) => {
    const refusal = assignIneligibility({ ...provider, ...change });
    expect(refusal?.code).toBe('delivery.provider_not_notifiable');
    expect(refusal?.message).toContain(says);
  });
});
