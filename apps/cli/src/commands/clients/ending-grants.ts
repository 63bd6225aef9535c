import type { EntityManager, MikroORM, OAuthClientEndOptions } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import { clientGrantEnder } from '@foodshare/server-kit/oauth-grants';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  secondsFromEnv,
  withOrm,
  type CliEnvironment,
} from '../../cli-context.ts';
import { withKeyValueStore } from '../../cli-state.ts';

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

/** Runs a change that ends a client's grants, kept in Redis and PostgreSQL. */
export function withEndingGrants<T>(
  env: CliEnvironment,
  change: (em: EntityManager, options: OAuthClientEndOptions) => Promise<T>,
): Promise<T> {
  return withKeyValueStore(env, (store) =>
    withOrm(env, (orm) => change(orm.em.fork(), endingGrantsWith(orm, store, env))),
  );
}
