import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { freePort } from './service-process';
import {
  containerPlan,
  stackAddressesOf,
  type ContainerAddresses,
  type ContainerSpec,
  type StackAddresses,
} from './infra';

/**
 * Starts the containers of TEST_INFRA=testcontainers (infra.ts says which) with the
 * `testcontainers` package: scripts/test.mjs calls it, then runs jest with the addresses in the
 * environment. Needs a Docker engine (or any engine testcontainers finds: DOCKER_HOST, Podman's
 * socket, ...). Not exported from the package's index: importing @marketplace/testing never loads
 * testcontainers.
 *
 * Written and type-checked, never run here: the development machine and CI have no Docker engine.
 */

export interface StartedInfra {
  /** KAFKA_BROKERS, SCHEMA_REGISTRY_URL, MONGO_URL, REDIS_URL for the tests and their services. */
  env: StackAddresses;
  /** Stops and removes every container (testcontainers' reaper does it too if this process dies). */
  stop(): Promise<void>;
}

/** Longest wait for one container to become ready (an image pull included). */
const STARTUP_TIMEOUT_MS = 180_000;

export async function startContainers(log: (line: string) => void = () => undefined): Promise<StartedInfra> {
  const runtime = await getContainerRuntimeClient();
  const dockerHost = runtime.info.containerRuntime.host;
  const plan = containerPlan({ dockerHost, kafkaPort: await freePort() });
  const results = await Promise.allSettled(plan.map((spec) => startOne(spec, log)));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = async () => {
    await Promise.allSettled(started.map(({ container }) => container.stop()));
  };
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const addresses = Object.fromEntries(
    started.map(({ spec, container }) => [
      spec.component,
      { host: container.getHost(), port: spec.fixedHostPort ? spec.port : container.getMappedPort(spec.port) },
    ]),
  ) as ContainerAddresses;
  return { env: stackAddressesOf(addresses), stop };
}

async function startOne(
  spec: ContainerSpec,
  log: (line: string) => void,
): Promise<{ spec: ContainerSpec; container: StartedTestContainer }> {
  log(`starting ${spec.component} (${spec.image})`);
  const container = await new GenericContainer(spec.image)
    .withEnvironment(spec.env)
    .withExposedPorts(spec.fixedHostPort ? { container: spec.port, host: spec.port } : spec.port)
    .withWaitStrategy(
      'log' in spec.readyWhen
        ? Wait.forLogMessage(spec.readyWhen.log)
        : Wait.forHttp(spec.readyWhen.httpGet, spec.port).forStatusCode(200),
    )
    .withStartupTimeout(STARTUP_TIMEOUT_MS)
    .start();
  return { spec, container };
}
