import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.ts';

/** Every migration in order. Named explicitly so that a renamed or minified class keeps its history row. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
];
