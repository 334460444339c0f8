import { providerAdminApiDocument, providerCallbacksAdminApiDocument } from '@marketplace/contracts';
import { asyncApiDocument, loadTopicCatalog } from '@marketplace/events';
import { DOCS, exportedFileOf, TOPICS_FILE } from '../docs/documents';

/**
 * Every API document of the platform as a file under docs/api/, committed, so that a reader (or a
 * client generator) needs no running cluster: every document /docs shows (the gateway's own, the
 * tenant documents, the Standard Delivery Provider Contract and the courier API), provider-delivery's
 * two administrator APIs, and the Kafka topics as AsyncAPI 3.0. `npm run docs:export` writes them;
 * exported-documents.test.ts fails when a file differs from the document the code serves.
 */
export function exportedDocuments(): Array<{ file: string; document: unknown }> {
  return [
    ...DOCS.map((doc) => ({ file: exportedFileOf(doc), document: doc.document })),
    { file: 'provider-admin.openapi.json', document: providerAdminApiDocument },
    { file: 'provider-callbacks-admin.openapi.json', document: providerCallbacksAdminApiDocument },
    { file: TOPICS_FILE, document: asyncApiDocument(loadTopicCatalog()) },
  ];
}

/** A document as its file holds it: two-space JSON and a final newline. */
export const documentFileText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
