export const tenantCatalogApiDocument: Record<string, unknown> = { openapi: '3.1.0', info: { title: 'placeholder', version: '0' }, paths: {} };
