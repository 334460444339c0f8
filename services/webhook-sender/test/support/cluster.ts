import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import {
  freePort,
  stackEnv,
  startGateway,
  startServiceProcess,
  startServiceProcesses,
  waitFor,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

/** Services joining consumer groups on a broker busy with every other test file can take a while. */
const READY_MS = 90_000;
/**
 * gateway-auth, catalog, ordering-pricing and webhook-sender as processes with their own
 * databases; webhook-sender may be restarted. Retry delays are divided by `retryTimeScale`
 * (10,000 runs the whole 24-hour schedule in about 9 seconds).
 */
export interface WebhookCluster {
  gateway: TestGateway;
  catalog: ServiceProcess;
  ordering: ServiceProcess;
  sender: ServiceProcess;
  senderDb: Db;
  orderingDb: Db;
  restartSender(): Promise<void>;
  stopSender(): Promise<void>;
  startSender(): Promise<void>;
  stop(): Promise<void>;
}

/** `gatewayEnv` adds to the gateway's settings (a transport key shared with the sender, say). */
export async function startWebhookCluster(
  senderEnv: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
): Promise<WebhookCluster> {
  const suffix = randomBytes(4).toString('hex');
  const senderPort = await freePort();
  const senderSettings = {
    MONGO_DATABASE: `it_wh_${suffix}`,
    KAFKA_CONSUMER_GROUP_PREFIX: `it-webhooks-${suffix}`,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    // Every installation of a test is new: the copy need not read the topic's whole history.
    INSTALLATIONS_COPY_START: 'latest',
    WEBHOOK_RETRY_TIME_SCALE: '10000',
    WEBHOOK_RESPONSE_TIMEOUT_MS: '1500',
    ...senderEnv,
  };
  const [catalog, ordering, sender] = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        MONGO_DATABASE: `it_ord_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess('webhook-sender', senderPort, senderSettings, READY_MS),
  ]);
  const gateway = await startGateway({
    CATALOG_URL: catalog!.url,
    ORDERING_URL: ordering!.url,
    WEBHOOKS_URL: sender!.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    RATE_LIMIT_PER_INSTALLATION: '100000',
    RATE_LIMIT_PER_IP: '100000',
    ...gatewayEnv,
  }).catch(async (error) => {
    await Promise.all([catalog!.stop(), ordering!.stop(), sender!.stop()]);
    throw error;
  });
  const client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  const cluster: WebhookCluster = {
    gateway,
    catalog: catalog!,
    ordering: ordering!,
    sender: sender!,
    senderDb: client.db(senderSettings.MONGO_DATABASE),
    orderingDb: client.db(`it_ord_${suffix}`),
    stopSender: async () => void (await cluster.sender.stop()),
    startSender: async () => {
      cluster.sender = await startServiceProcess('webhook-sender', senderPort, senderSettings, READY_MS);
    },
    restartSender: async () => {
      await cluster.stopSender();
      await cluster.startSender();
    },
    stop: async () => {
      await client.close();
      await gateway.stop();
      await Promise.all([cluster.catalog.stop(), cluster.ordering.stop(), cluster.sender.stop()]);
    },
  };
  return cluster;
}

/** Waits until the sender's copy of the installation is connected with a secret. */
export async function waitForInstallation(
  cluster: WebhookCluster,
  installationId: string,
  wanted: (copy: any) => boolean = (c) => c.connected && c.webhookSecretSealed,
): Promise<void> {
  await waitFor(`the sender's copy of installation ${installationId}`, async () => {
    const copy = await cluster.senderDb.collection('installations').findOne({ _id: installationId as never });
    return copy !== null && wanted(copy);
  });
}
