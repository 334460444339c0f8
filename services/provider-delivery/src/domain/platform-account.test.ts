import { PROVIDER_EVENT_TYPES, PROVIDER_EVENTS } from '@marketplace/contracts';
import { checkEventTypes, defaultEventTypes, eventsFor } from './platform-account';

describe('the event types an account receives', () => {
  it('defaults to exactly the spec’s table: none of our own types', () => {
    expect(defaultEventTypes()).toEqual([
      'delivery.accepted',
      'driver.assigned',
      'driver.location_updated',
      'eta.updated',
      'tracking.updated',
      'delivery.picked_up',
      'delivery.delivered',
      'delivery.cancelled',
      'delivery.failed',
    ]);
    expect(defaultEventTypes().some((type) => PROVIDER_EVENTS[type].ours)).toBe(false);
  });

  it('keeps a choice of known types in the order of the known types, each once', () => {
    expect(checkEventTypes(['delivery.on_the_way', 'delivery.accepted', 'delivery.accepted'])).toEqual({
      eventTypes: ['delivery.accepted', 'delivery.on_the_way'],
    });
    expect(checkEventTypes([])).toEqual({ eventTypes: [] });
    expect(checkEventTypes([...PROVIDER_EVENT_TYPES])).toEqual({ eventTypes: [...PROVIDER_EVENT_TYPES] });
  });

  it('refuses unknown names, naming each', () => {
    expect(checkEventTypes(['delivery.accepted', 'driver.teleported', 'webhook.test'])).toEqual({
      errors: {
        eventTypes: ['"driver.teleported" is not a known event type', '"webhook.test" is not a known event type'],
      },
    });
  });

  it('publishes only the chosen types of what a change sends', () => {
    const sent = ['driver.arrived_at_pickup', 'eta.updated'] as const;
    expect(eventsFor(defaultEventTypes(), sent)).toEqual(['eta.updated']);
    expect(eventsFor([...PROVIDER_EVENT_TYPES], sent)).toEqual(['driver.arrived_at_pickup', 'eta.updated']);
    expect(eventsFor([], sent)).toEqual([]);
  });
});
