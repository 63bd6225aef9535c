import type { MikroORM } from '@foodshare/domain';

/**
 * The SQL statements `action` sends through `orm`, begin and commit included: every call of
 * MikroORM's query logger, which sees each statement whether or not logging is on.
 */
export async function countQueries<T>(
  orm: MikroORM,
  action: () => Promise<T>,
): Promise<{ result: T; queries: number }> {
  const logger = orm.config.getLogger();
  const log = logger.logQuery.bind(logger);
  const own = Object.getOwnPropertyDescriptor(logger, 'logQuery');
  let queries = 0;
  logger.logQuery = (context) => {
    queries += 1;
    log(context);
  };
  try {
    const result = await action();
    return { result, queries };
  } finally {
    if (own) Object.defineProperty(logger, 'logQuery', own);
    else delete (logger as { logQuery?: unknown }).logQuery;
  }
}
