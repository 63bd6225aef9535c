import { p } from '@mikro-orm/core';

/** Integer identity key: `by default` so that seeds may insert the well-known ids of the reference platform. */
export const identityId = () =>
  p.integer().primary().autoincrement().generated('by default as identity');

/** Set by the database, so rows inserted by plain SQL (seeds, scripts) get it too. */
export const createdAt = () => p.datetime().defaultRaw('now()');
