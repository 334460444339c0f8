#!/usr/bin/env node
// `npm run docs:export`: writes every API document (OpenAPI, and the Kafka topics as AsyncAPI 3.0)
// to docs/api/, from the built code (the npm script builds first). The list and the file format are
// services/gateway-auth/src/http/openapi/exported-documents.ts, whose test fails when a committed
// file is stale. Files of documents that are gone are removed.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { exportedDocuments, documentFileText } = require(
  join(root, 'services/gateway-auth/dist/http/openapi/exported-documents.js'),
);

const dir = join(root, 'docs', 'api');
mkdirSync(dir, { recursive: true });
const documents = exportedDocuments();
const files = new Set(documents.map((d) => d.file));
for (const existing of readdirSync(dir))
  if (existing.endsWith('.json') && !files.has(existing)) rmSync(join(dir, existing));
for (const { file, document } of documents) writeFileSync(join(dir, file), documentFileText(document));
console.log(`docs:export: wrote ${documents.length} documents to docs/api/`);
