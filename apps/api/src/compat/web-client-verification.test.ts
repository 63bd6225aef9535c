import { signInAs } from '@foodshare/server-kit/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';
import { platformRequest } from './platform-client.ts';

const ids = inject('demoIds');

// The call of the platform's web client in client/src/api/verification.js that makes the
// user's own passport: post('/user/current/passport', {}, { responseType: 'blob' }).
describe('web client verification.js against POST /api/user/current/passport', () => {
  let app: ApiApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
  });

  afterAll(async () => {
    await app.close();
  });

  it('createPassportAsUser', async () => {
    const alice = await signInAs(app, ids.users.alice);
    const response = await platformRequest(app, alice, {
      method: 'POST',
      url: '/api/user/current/passport',
      body: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('createPassportAsUser for an unverified user', async () => {
    const carla = await signInAs(app, ids.users.carla);
    const response = await platformRequest(app, carla, {
      method: 'POST',
      url: '/api/user/current/passport',
      body: {},
    });
    expect(response.statusCode).toBe(403);
  });
});
