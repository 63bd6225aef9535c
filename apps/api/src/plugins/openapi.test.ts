import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';

interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<
    string,
    Record<string, { security?: unknown; responses?: object; tags?: string[] }>
  >;
}

describe('the OpenAPI document and its documentation page', () => {
  let app: ApiApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ BASE_URL: 'https://food.example.org' }));
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });

  afterAll(async () => {
    await app.close();
  });

  it('is OpenAPI 3.1 served for the configured origin', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://food.example.org' }]);
  });

  it('declares the api_key scheme of SPEC.md: the X-CSRF-Token header', () => {
    expect(document.components.securitySchemes.api_key).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-CSRF-Token',
    });
  });

  it('lists the routes the app serves, with their response schemas, and hides the probes', () => {
    const current = document.paths['/api/users/current']?.get;
    expect(current?.responses).toHaveProperty('200');
    expect(current?.responses).toHaveProperty('401');
    expect(Object.keys(document.paths).some((path) => path.startsWith('/health'))).toBe(false);
    expect(document.paths).not.toHaveProperty('/api/openapi.json');
  });

  it('asks state-changing operations for the CSRF token, but not reads or the login', () => {
    expect(document.paths['/api/logout']?.post?.security).toEqual([{ api_key: [] }]);
    expect(document.paths['/api/users/current']?.get?.security).toBeUndefined();
    expect(document.paths['/api/login']?.post?.security).toBeUndefined();
  });

  it('every operation is tagged, so the documentation page groups it', () => {
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.tags?.length ?? 0).toBeGreaterThan(0);
      }
    }
  });

  it('serves an interactive documentation page at /api/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('swagger-ui');
  });
});
