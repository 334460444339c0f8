/**
 * sdp-conformance: certifies a delivery provider against the Standard Delivery Provider Contract.
 * The library API the command is built on (and that integration tests call).
 */
export { runConformance, DEFAULT_CONCURRENCY, type RunOptions } from './runner/run-conformance';
export { loadDeclaration, validateDeclaration, DeclarationError } from './runner/declaration';
export { writeReports, type WrittenReports } from './report/write';
export { signReport, verifyReport, type Verification } from './report/sign';
export { certificateOf, signCertificate, verifyCertificate, type Certificate } from './report/certificate';
export { canonicalJson } from './report/canonical-json';
export { toJunit } from './report/junit';
export { toHtml, type HtmlOptions } from './report/html/page';
export { ALL_TESTS } from './tests';
export { CONTRACT, SECTIONS, ref } from './spec';
export { createRedactor, REDACTED, type Redactor } from './redact';
export { CallbackReceiver, type ReceiverOptions } from './receiver/callback-receiver';
export { createProviderClient } from './http/provider-client';
export { main } from './cli';
export * from './model';
export * from './test-api';
