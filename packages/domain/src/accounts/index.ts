export * from './account-errors.ts';
export * from './identity-sequences.ts';
export * from './lookups.ts';
export * from './region-admin.service.ts';
export * from './regions.service.ts';
export * from './users.service.ts';
