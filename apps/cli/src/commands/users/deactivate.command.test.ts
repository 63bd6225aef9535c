import { Role, UserEntity } from '@foodshare/domain';
import { SessionStore } from '@foodshare/server-kit';
import { describe, expect, it, type TestOrm } from '../../test-support/fixtures.ts';
import { deactivateUserCommand } from './deactivate.command.ts';

async function tokensValidAfter(db: TestOrm, id: number): Promise<Date | null> {
  return (await db.em().findOneOrFail(UserEntity, id)).tokensValidAfter ?? null;
}

describe('users deactivate', () => {
  it('deactivates the account and ends its refresh tokens, once', async ({
    db,
    store,
    newUser,
  }) => {
    const target = await newUser();
    expect(await tokensValidAfter(db, target.id)).toBeNull();
    const result = await deactivateUserCommand(db.em(), store, { email: target.email });
    expect(result).toEqual({ id: target.id, email: target.email, changed: true });
    const stored = await db.em().findOneOrFail(UserEntity, target.id);
    expect(stored.activated).toBe(false);
    const cutoff = stored.tokensValidAfter;
    expect(cutoff).toBeInstanceOf(Date);

    const again = await deactivateUserCommand(db.em(), store, { id: target.id });
    expect(again.changed).toBe(false);
    expect(await tokensValidAfter(db, target.id)).toEqual(cutoff);
  });

  it('ends the account’s sessions, and no one else’s', async ({ db, store, newUser }) => {
    const target = await newUser();
    const bystander = await newUser();
    const sessions = new SessionStore(store);
    const account = { role: Role.Foodsharer, verified: false };
    const phone = await sessions.create(target.id, { rememberMe: true, account });
    const laptop = await sessions.create(target.id, { rememberMe: false, account });
    const other = await sessions.create(bystander.id, { rememberMe: false, account });

    await deactivateUserCommand(db.em(), store, { id: target.id });
    expect(await sessions.find(phone.id)).toBeNull();
    expect(await sessions.find(laptop.id)).toBeNull();
    expect(await sessions.find(other.id)).not.toBeNull();
  });
});
