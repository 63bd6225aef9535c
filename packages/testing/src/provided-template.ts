import { setupTemplateDatabase } from './test-databases.ts';

/**
 * vitest globalSetup of a suite whose template database holds rows the tests must know by id
 * (the demo data): `prepare` migrates and fills the template once per run, and what it returns
 * reaches the tests through vitest's `provide`, as `inject(key)`. Returns the teardown.
 */
export async function setupProvidedTemplate<K extends string, V>(
  project: { provide(key: K, value: V): void },
  options: { name: string; key: K; prepare: (url: string) => Promise<V> },
): Promise<() => Promise<void>> {
  let provided: { value: V } | undefined;
  const teardown = await setupTemplateDatabase({
    name: options.name,
    migrate: async (url) => {
      provided = { value: await options.prepare(url) };
    },
  });
  if (!provided) throw new Error(`the template of ${options.name} was not prepared`);
  project.provide(options.key, provided.value);
  return teardown;
}
