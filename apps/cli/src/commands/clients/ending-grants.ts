import type { MikroORM, OAuthClientEndOptions } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import { clientGrantEnder } from '@foodshare/server-kit/oauth-grants';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  secondsFromEnv,
  type CliEnvironment,
} from '../../cli-context.ts';

/** The token lifetimes of the auth service, which a client's grant cutoff must outlive. */
function grantLifetimes(env: CliEnvironment) {
  return {
    ACCESS_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'ACCESS_TOKEN_TTL_SECONDS',
      DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    ),
    REFRESH_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'REFRESH_TOKEN_TTL_SECONDS',
      DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    ),
  };
}

/**
 * Ending a client's grants as the auth service does: a cutoff in its key-value store and in
 * PostgreSQL, written beside the change's transaction (OAuthClientEndOptions.endGrants).
 */
export function endingGrantsWith(
  orm: MikroORM,
  store: KeyValueStore,
  env: CliEnvironment,
): OAuthClientEndOptions {
  return {
    actorId: null,
    endGrants: clientGrantEnder(store, () => orm.em.fork(), grantLifetimes(env)),
  };
}
