import { prepareDemoDatabase, type DemoDataIds } from '@foodshare/domain';
import { setupTemplateDatabase } from '@foodshare/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Ids of the demo rows every test database starts with. */
    demoIds: DemoDataIds;
  }
}

/**
 * The api suite's template: migrated, with the demo data loaded once, so every test file
 * starts from its own copy of the same community (users of every role, regions, stores, a
 * chain, a conversation, a forum thread, OAuth clients) and adds what it needs on top.
 * Tests read the demo ids with `inject('demoIds')`.
 */
export default async function setup(project: TestProject) {
  let demoIds: DemoDataIds | undefined;
  const teardown = await setupTemplateDatabase({
    name: 'api',
    migrate: async (url) => {
      demoIds = await prepareDemoDatabase(url);
    },
  });
  if (!demoIds) throw new Error('the demo data did not load');
  project.provide('demoIds', demoIds);
  return teardown;
}
