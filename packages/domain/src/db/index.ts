export * from './orm.ts';
export * from './embedded-database.ts';
export * from './run-sql.ts';
export * from './connection-pool.ts';
export * from './database-errors.ts';
