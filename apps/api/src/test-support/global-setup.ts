import { prepareDemoDatabase, type DemoDataIds } from '@foodshare/domain';
import { setupProvidedTemplate } from '@foodshare/testing';
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
export default (project: TestProject) =>
  setupProvidedTemplate(project, { name: 'api', key: 'demoIds', prepare: prepareDemoDatabase });
