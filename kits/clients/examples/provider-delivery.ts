import { createProviderClient, type ProviderContractComponents } from 'marketplace-api-clients';

type DeliveryRequest = ProviderContractComponents['schemas']['ProviderCreateDeliveryRequest'];

/** A platform asks a delivery provider for a delivery, then reads the delivery's status. */
export async function requestDelivery(baseUrl: string, apiKey: string, request: DeliveryRequest) {
  const provider = createProviderClient({ baseUrl, apiKey }); // baseUrl ends in /v1

  const created = await provider.POST('/deliveries', { body: request });
  if (created.error) throw new Error(`create: ${created.error.code} ${created.error.message}`);
  if (!created.data.accepted || !created.data.providerDeliveryId)
    return { accepted: false, reason: created.data.rejectionReason };

  const providerDeliveryId = created.data.providerDeliveryId;
  const status = await provider.GET('/deliveries/{providerDeliveryId}/status', {
    params: { path: { providerDeliveryId } },
  });
  if (status.error) throw new Error(`status: ${status.error.code}`);
  return { accepted: true, providerDeliveryId, status: status.data.status, since: status.data.eventTimeUtc };
}
