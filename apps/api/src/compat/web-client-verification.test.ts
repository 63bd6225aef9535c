import { describe, expect, it } from './fixtures.ts';
import { platformRequest } from './platform-client.ts';

// The call of the platform's web client in client/src/api/verification.js that makes the
// user's own passport: post('/user/current/passport', {}, { responseType: 'blob' }).
describe('web client verification.js against POST /api/user/current/passport', () => {
  it('createPassportAsUser', async ({ app, as }) => {
    const alice = await as('alice');
    const response = await platformRequest(app, alice, {
      method: 'POST',
      url: '/api/user/current/passport',
      body: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('createPassportAsUser for an unverified user', async ({ app, as }) => {
    const carla = await as('carla');
    const response = await platformRequest(app, carla, {
      method: 'POST',
      url: '/api/user/current/passport',
      body: {},
    });
    expect(response.statusCode).toBe(403);
  });
});
