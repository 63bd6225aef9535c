// The state of OAuth grants in the key-value store and the revocation ledger: the auth service
// reads and writes it, the CLI ends grants in it (docs/oauth.md §6.2). The DPoP proof checker
// of both the authorization server and the REST API.
export * from './access-token-deny-list.store.ts';
export * from './authorization-codes.store.ts';
export * from './client-grant-cutoffs.store.ts';
export * from './client-row-versions.ts';
export * from './consents.store.ts';
export * from './dpop-proofs.ts';
export * from './presented-access-token.ts';
export * from './refresh-families.store.ts';
export * from './revocation-ledger.store.ts';
export * from './user-grants.store.ts';
export * from './www-authenticate.ts';
