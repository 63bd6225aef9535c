import { redoclyLint } from '../test-support/redocly-lint.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

test.override('appEnv', { scope: 'file' }, { BASE_URL: 'https://food.example.org' });

describe('the OpenAPI document under Redocly', () => {
  it('breaks no rule of the recommended ruleset, and Redocly reaches for no network', async ({
    anonymous,
  }) => {
    const response = await anonymous.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const { problems, connections } = await redoclyLint(response.json());
    // Warnings too: the document has none, and a new one is as easily mended.
    expect(
      problems.map(({ severity, ruleId, message, location }) => ({
        severity,
        ruleId,
        message,
        at: location[0]?.pointer,
      })),
    ).toEqual([]);
    expect(connections).toEqual([]);
  }, 60_000);
});
