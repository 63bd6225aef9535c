import type { EntityManager, MikroORM } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import { announceClientRowChange } from '@foodshare/server-kit/oauth-grants';
import { withOrm } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { withKeyValueStore } from '../../cli-state.ts';

/** What a client change gets besides its EntityManager: ending grants needs both. */
export interface ClientChangeContext {
  orm: MikroORM;
  store: KeyValueStore;
}

/** The line that says a change holds, but not yet on every auth instance. */
export function unannouncedChangeWarning(clientId: string, error: unknown): string {
  return (
    `Warning: client ${clientId} changed, but Redis did not take the announcement of the change ` +
    `(${(error as Error).message}): auth instances may use its old settings for up to 30 seconds.`
  );
}

/**
 * Runs a change of an existing client's row, then tells every auth instance that the row changed
 * (`announceClientRowChange`), so that none keeps using the row it holds in memory (up to 30 s).
 * Redis is opened before the change, so that one out of reach refuses the command with nothing
 * changed (STATE_STORE_UNAVAILABLE, as for ending grants). Once the change committed it is not
 * undone: an announcement that fails then is a warning on stderr, not a failed command.
 * `changed` tells from the result whether the row changed at all (default: always).
 */
export function withClientChange<T>(
  runtime: CliRuntime,
  clientId: string,
  change: (em: EntityManager, context: ClientChangeContext) => Promise<T>,
  changed: (result: T) => boolean = () => true,
): Promise<T> {
  return withKeyValueStore(runtime.env, (store) =>
    withOrm(runtime.env, async (orm) => {
      const result = await change(orm.em.fork(), { orm, store });
      if (changed(result)) {
        try {
          await announceClientRowChange(store, clientId);
        } catch (error) {
          runtime.io.stderr(unannouncedChangeWarning(clientId, error));
        }
      }
      return result;
    }),
  );
}
