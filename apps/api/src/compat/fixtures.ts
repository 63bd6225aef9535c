import { test as base } from '../test-support/fixtures.ts';
import { ApiTester } from './api-tester.ts';

/**
 * The api fixtures with `I`, the platform's ApiTester over the file's app and ORM, as the
 * platform's own API tests (Codeception) name it: `it('…', async ({ I }) => …)`.
 */
export const test = base.extend('I', { scope: 'file' }, ({ app }) => ApiTester.over(app, app.orm));
export const it = test;
export { describe, expect, ids } from '../test-support/fixtures.ts';
