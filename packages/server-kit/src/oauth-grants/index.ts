// The state of OAuth grants in the key-value store and the revocation ledger: the auth service
// reads and writes it, the CLI ends grants in it (docs/oauth.md §6.2).
export * from './access-token-deny-list.store.ts';
export * from './authorization-codes.store.ts';
export * from './client-grant-cutoffs.store.ts';
export * from './consents.store.ts';
export * from './refresh-families.store.ts';
export * from './revocation-ledger.store.ts';
export * from './user-grants.store.ts';
