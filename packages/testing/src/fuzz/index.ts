// Fuzzing helpers, a subpath of their own (`@foodshare/testing/fuzz`) so that what imports the
// rest of the package (`pnpm start` among them) does not load fast-check.
export * from './schema-arbitrary.ts';
export * from './database-fingerprint.ts';
export * from './fuzz-operations.ts';
