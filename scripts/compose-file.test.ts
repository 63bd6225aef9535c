import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateOAuthClientInput } from '@foodshare/domain';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

// No Docker engine runs here or in CI (docs: TOOLCHAIN), so docker/compose.yml is checked as
// data: the services the first run of docs/deploy.md §1 names, and the settings that must agree between
// compose, its .env example, the first-run script and the Kubernetes first-run examples.

const DOCKER = path.join(import.meta.dirname, '..', 'docker');
const FIRST_RUN = path.join(DOCKER, 'k8s', 'first-run');

interface Service {
  profiles?: string[];
  build?: { target?: string };
  entrypoint?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

let source: string;
let services: Record<string, Service>;

/** The `NAME=value` lines of an env file, as kustomize's secretGenerator and compose read them. */
async function envFile(file: string): Promise<Map<string, string>> {
  const text = await readFile(file, 'utf8');
  return new Map(
    [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]),
  );
}

async function envKeys(file: string): Promise<string[]> {
  return [...(await envFile(file)).keys()];
}

async function scriptSettings(): Promise<string[]> {
  const script = await readFile(path.join(FIRST_RUN, 'base', 'first-run.sh'), 'utf8');
  return [...new Set(script.match(/FIRST_[A-Z_]+/g))].sort();
}

beforeAll(async () => {
  source = await readFile(path.join(DOCKER, 'compose.yml'), 'utf8');
  // merge: the file shares settings through `<<: *anchor`.
  services = (parse(source, { merge: true }) as { services: Record<string, Service> }).services;
});

describe('docker/compose.yml', () => {
  it('names only services it has in depends_on', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(Object.keys(services), `${name} depends on ${dependency}`).toContain(dependency);
      }
    }
  });

  it('asks docker/.env.example for every setting it requires', async () => {
    const required = [...source.matchAll(/\$\{([A-Z_]+):\?/g)].map((match) => match[1]!);
    expect(required.length).toBeGreaterThan(0);
    expect(await envKeys(path.join(DOCKER, '.env.example'))).toEqual(
      expect.arrayContaining(required),
    );
  });

  it.each(['cli', 'first-run'])(
    'has %s run the CLI image after the migration, never started by `up`',
    (name) => {
      const service = services[name]!;
      expect(service.profiles).toEqual(['tools']);
      expect(service.build?.target).toBe('cli');
      expect(service.depends_on?.migrate?.condition).toBe('service_completed_successfully');
      expect(service.environment).toHaveProperty('DATABASE_URL');
      expect(service.environment).toHaveProperty('CLIENT_SECRET_PEPPER');
    },
  );

  it('runs the first-run script of the Kubernetes Job, with every setting it reads', async () => {
    const service = services['first-run']!;
    const [mount] = service.volumes ?? [];
    const [from, to] = mount!.split(':') as [string, string];
    expect(existsSync(path.join(DOCKER, from))).toBe(true);
    expect(from).toBe('./k8s/first-run/base/first-run.sh');
    expect(service.entrypoint).toEqual(['sh', to]);
    expect(Object.keys(service.environment ?? {})).toEqual(
      expect.arrayContaining(await scriptSettings()),
    );
  });

  it('keeps the orga password out of docker/.env.example', async () => {
    const keys = await envKeys(path.join(DOCKER, '.env.example'));
    const settings = await scriptSettings();
    expect(keys).toEqual(
      expect.arrayContaining(settings.filter((name) => name !== 'FIRST_ORGA_PASSWORD')),
    );
    expect(keys).not.toContain('FIRST_ORGA_PASSWORD');
  });
});

describe.each(['development', 'production'])('the %s first-run example', (overlay) => {
  it('sets every setting the first-run script reads', async () => {
    expect((await envKeys(path.join(FIRST_RUN, overlay, 'first-run.env.example'))).sort()).toEqual(
      await scriptSettings(),
    );
  });

  it('describes a client the CLI accepts', async () => {
    const settings = await envFile(path.join(FIRST_RUN, overlay, 'first-run.env.example'));
    const list = (name: string) => settings.get(name)!.split(' ');
    expect(() =>
      validateOAuthClientInput({
        clientId: settings.get('FIRST_CLIENT_ID')!,
        name: settings.get('FIRST_CLIENT_NAME')!,
        confidential: false,
        redirectUris: [settings.get('FIRST_CLIENT_REDIRECT_URI')!],
        scopes: list('FIRST_CLIENT_SCOPES'),
        grantTypes: list('FIRST_CLIENT_GRANTS'),
        requiredRegionIds: [],
      }),
    ).not.toThrow();
  });
});
