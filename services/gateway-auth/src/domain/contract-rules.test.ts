import { missingRequiredEvents } from './contract-rules';

describe('events a contract version must subscribe to', () => {
  it.each([
    [['Delivery.Accept', 'Orders.Read'], [], ['delivery.assigned']],
    [['Delivery.UpdateTracking'], ['delivery.cancelled', 'delivery.superseded'], ['delivery.assigned']],
    // Any Delivery.* scope makes a delivery provider's version, the inactive Delivery.Read too.
    [['Delivery.Read', 'Payments.Read'], ['orders.created'], ['delivery.assigned']],
    [['Delivery.Accept'], ['delivery.assigned'], []],
    [['Catalog.Read', 'Orders.Create', 'Orders.Read'], [], []],
    [[], [], []],
  ])('scopes %j, events %j → missing %j', (scopes, events, missing) => {
    expect(missingRequiredEvents(scopes, events)).toEqual(missing);
  });
});
