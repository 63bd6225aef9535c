import { setUserPassword, type EntityManager } from '@foodshare/domain';
import { SessionStore, type KeyValueStore } from '@foodshare/server-kit';
import { userGrantEnder } from '@foodshare/server-kit/oauth-grants';
import type { Command } from 'commander';
import {
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  secondsFromEnv,
  withEntityManager,
  type CliEnvironment,
} from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { withKeyValueStore } from '../../cli-state.ts';
import { passwordFromStdin } from './password-stdin.ts';
import { findUser, userCommand, type UserRef } from './user-ref.ts';

/**
 * A new password; every session of the user ends with the old one (they live in the services'
 * key-value store), and so does every OAuth grant: the refresh tokens (setUserPassword, and
 * their families here) and the access tokens issued from them, which would otherwise work
 * until they expire. A reset follows a lost or leaked password: whoever held it may hold those.
 */
export async function resetPasswordCommand(
  em: EntityManager,
  store: KeyValueStore,
  ref: UserRef,
  password: string,
  env: Pick<CliEnvironment, 'REFRESH_TOKEN_TTL_SECONDS'> = {},
): Promise<{ id: number; email: string; sessionsEnded: number; appsEnded: string[] }> {
  const user = await setUserPassword(em, (await findUser(em, ref)).id, password);
  const sessionsEnded = await new SessionStore(store).destroyOthers(user.id);
  const endGrants = userGrantEnder(store, () => em.fork(), {
    REFRESH_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'REFRESH_TOKEN_TTL_SECONDS',
      DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    ),
  });
  const appsEnded = await endGrants(user.id);
  return { id: user.id, email: user.email, sessionsEnded, appsEnded };
}

/** `users reset-password`. */
export function resetPasswordLeaf(runtime: CliRuntime): Command {
  return userCommand(
    runtime,
    'reset-password',
    "set a user's password, read from standard input; ends the user's sessions and OAuth grants (refresh and access tokens)",
    async (ref) => {
      const password = passwordFromStdin(await runtime.io.readStdin());
      return withKeyValueStore(runtime.env, (store) =>
        withEntityManager(runtime.env, (em) =>
          resetPasswordCommand(em, store, ref, password, runtime.env),
        ),
      );
    },
    (result) =>
      `New password for user ${result.id} <${result.email}>; ${result.sessionsEnded} session(s) ended, ` +
      `grants of ${result.appsEnded.length} app(s) ended.`,
  );
}
