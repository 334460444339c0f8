/** The courier simulator (simulator.ts has its design): what the service's wiring needs. */
export { CourierSimulator, type CourierSimulatorOptions, type SimulatedAccount } from './simulator';
export { adminTokenSource } from './courier-client';
