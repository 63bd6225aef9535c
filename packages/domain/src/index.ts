export * from './enums.ts';
export * from './passwords.ts';
export * from './permissions/index.ts';
export * from './db/index.ts';
export * from './entities/index.ts';
export * from './accounts/index.ts';
export * from './demo/index.ts';
export * from './signing-keys/index.ts';
