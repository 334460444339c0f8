import {
  providerAdminApiDocument,
  providerApiDocument,
  providerCallbacksAdminApiDocument,
  providerCourierApiDocument,
} from '@marketplace/contracts';
import { asyncApiDocument, loadTopicCatalog } from '@marketplace/events';
import { DOCS } from '../docs-routes';

/**
 * Every API document of the platform as a file under docs/api/, committed, so that a reader (or a
 * client generator) needs no running cluster: the gateway's own and the tenant documents it shows
 * at /docs, provider-delivery's (the Standard Delivery Provider Contract, the courier API and its
 * two administrator APIs), and the Kafka topics as AsyncAPI 3.0. `npm run docs:export` writes them;
 * exported-documents.test.ts fails when a file differs from the document the code serves.
 */
export function exportedDocuments(): Array<{ file: string; document: unknown }> {
  return [
    ...DOCS.map(({ name, document }) => ({ file: `${name}.openapi.json`, document })),
    { file: 'provider-contract.openapi.json', document: providerApiDocument },
    { file: 'provider-courier.openapi.json', document: providerCourierApiDocument },
    { file: 'provider-admin.openapi.json', document: providerAdminApiDocument },
    { file: 'provider-callbacks-admin.openapi.json', document: providerCallbacksAdminApiDocument },
    { file: 'platform-topics.asyncapi.json', document: asyncApiDocument(loadTopicCatalog()) },
  ];
}

/** A document as its file holds it: two-space JSON and a final newline. */
export const documentFileText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
