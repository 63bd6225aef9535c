export * from './development-key.ts';
export * from './key-encryption.ts';
export * from './signing-keys.service.ts';
