import type { CreateOrderRequest } from '@marketplace/contracts';

/** Spec: Create order request; its schema, limits and phone rule are the contract's (`@marketplace/contracts`). */
export type OrderRequest = CreateOrderRequest;

export { ORDER_LIMITS, PHONE_PATTERN } from '@marketplace/contracts';
