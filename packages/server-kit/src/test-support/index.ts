// What the apps' tests share: signed-in clients, and statement counts for query budgets.
export * from './count-queries.ts';
export * from './signed-in-client.ts';
