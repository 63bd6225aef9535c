import { describe, expect, it, test, type UserClient } from '../test-support/fixtures.ts';

type FieldErrors = { path: string; message: string }[];

// Each kind of failure a schema can report, on a real route, answered in the request's terms:
// the field as a JSON Pointer and the rule in plain words, never the validator's internals.
describe('errors[] of a 400 VALIDATION_FAILED name the field and the rule', () => {
  let kim: UserClient;

  test.beforeAll(async ({ as }) => {
    kim = await as('kim');
  });

  it.for<[string, unknown, FieldErrors]>([
    [
      'a string too long',
      { name: 'x'.repeat(121) },
      [{ path: '/body/name', message: 'must be at most 120 characters' }],
    ],
    [
      'a string of the wrong form',
      { name: 'A <b>bold</b> name' },
      [{ path: '/body/name', message: 'is not in the accepted form' }],
    ],
    [
      'a wrong type',
      { allowPress: 'yes' },
      [{ path: '/body/allowPress', message: 'must be true or false' }],
    ],
    [
      'a number out of range',
      { status: 9 },
      [{ path: '/body/status', message: 'must be at most 4' }],
    ],
    [
      'a fraction for an integer',
      { status: 1.5 },
      [{ path: '/body/status', message: 'must be a whole number' }],
    ],
    [
      'a negative count',
      { estimatedStoreCount: -1 },
      [{ path: '/body/estimatedStoreCount', message: 'must be at least 0' }],
    ],
    [
      'an item repeated',
      { kams: [2, 2] },
      [{ path: '/body/kams', message: 'must not contain the same item twice' }],
    ],
    ['a bad array item', { kams: [0] }, [{ path: '/body/kams/0', message: 'must be at least 1' }]],
    [
      'too many items',
      { kams: Array.from({ length: 101 }, (_, i) => i + 1) },
      [{ path: '/body/kams', message: 'must have at most 100 items' }],
    ],
    ['no field at all', {}, [{ path: '/body', message: 'must contain at least one field' }]],
    [
      'a NUL character',
      { notes: 'a\u0000b' },
      [{ path: '/body/notes', message: 'must not contain the NUL character (U+0000)' }],
    ],
  ])('PATCH /api/chains/1 with %s', async ([_kind, body, errors]) => {
    const response = await kim.patch('/api/chains/1', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors });
    expect(response.json<{ errors: FieldErrors }>().errors).toHaveLength(errors.length);
  });

  it('names a query parameter the route does not know (no "schema is false")', async ({ as }) => {
    const alice = await as('alice');
    const response = await alice.get('/api/conversations/1/messages?limit=5&colour=red');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: FieldErrors }>().errors).toEqual([
      { path: '/querystring/colour', message: 'is not allowed' },
    ]);
  });

  it('names a query parameter out of range', async ({ as }) => {
    const alice = await as('alice');
    const response = await alice.get('/api/conversations/1/messages?limit=201');
    expect(response.json<{ errors: FieldErrors }>().errors).toEqual([
      { path: '/querystring/limit', message: 'must be at most 200' },
    ]);
  });

  it('names a missing field and a malformed e-mail address', async ({ anonymous }) => {
    const response = await anonymous.post('/api/login', { email: 'not-an-address' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: FieldErrors }>().errors).toEqual(
      expect.arrayContaining([
        { path: '/body/password', message: 'is required' },
        { path: '/body/email', message: 'must be an e-mail address' },
      ]),
    );
  });

  it('names the body itself when it is not an object', async () => {
    const response = await kim.patch('/api/chains/1', [1, 2]);
    expect(response.json<{ errors: FieldErrors }>().errors).toEqual([
      { path: '/body', message: 'must be an object' },
    ]);
  });

  it('names a page limit not written as a whole number', async ({ as }) => {
    const alice = await as('alice');
    const response = await alice.get('/api/users/3/bananas?limit=1e2');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: FieldErrors }>().errors).toEqual([
      { path: '/querystring/limit', message: 'must be a whole number' },
    ]);
  });
});
