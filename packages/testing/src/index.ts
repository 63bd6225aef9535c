export * from './database-urls.ts';
export * from './embedded-postgres.ts';
export * from './test-databases.ts';
export * from './provided-template.ts';
export * from './test-service-env.ts';
export * from './graceful-stop.ts';
export * from './disposable-servers.ts';
export * from './disposable-sentinel.ts';
