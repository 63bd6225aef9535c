import { UserEntity } from '@foodshare/domain';
import { describe, expect, it, type TestOrm } from '../../test-support/fixtures.ts';
import { deactivateUserCommand } from './deactivate.command.ts';

async function tokensValidAfter(db: TestOrm, id: number): Promise<Date | null> {
  return (await db.em().findOneOrFail(UserEntity, id)).tokensValidAfter ?? null;
}

describe('users deactivate', () => {
  it('deactivates the account and ends its refresh tokens, once', async ({ db, newUser }) => {
    const target = await newUser();
    expect(await tokensValidAfter(db, target.id)).toBeNull();
    const result = await deactivateUserCommand(db.em(), { email: target.email });
    expect(result).toEqual({ id: target.id, email: target.email, changed: true });
    const stored = await db.em().findOneOrFail(UserEntity, target.id);
    expect(stored.activated).toBe(false);
    const cutoff = stored.tokensValidAfter;
    expect(cutoff).toBeInstanceOf(Date);

    const again = await deactivateUserCommand(db.em(), { id: target.id });
    expect(again.changed).toBe(false);
    expect(await tokensValidAfter(db, target.id)).toEqual(cutoff);
  });
});
