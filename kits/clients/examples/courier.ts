import { createCourierClient } from 'marketplace-api-clients';

/** A driver's app goes online and shows the driver's state: the running offer, the delivery carried. */
export async function goOnline(providerUrl: string, token: string) {
  const courier = createCourierClient({ baseUrl: `${providerUrl}/courier/v1`, token });

  const state = await courier.POST('/me/availability', { body: { online: true } });
  if (state.error) throw new Error(`availability: ${state.error.code}`);
  const { driver, offer, activeDelivery } = state.data;
  return {
    name: driver.name,
    online: driver.online,
    offer: offer?.providerDeliveryId ?? null,
    carrying: activeDelivery !== null,
  };
}
