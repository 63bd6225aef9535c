import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  K8S_DIR,
  k8sTreeWithExampleSecrets,
  kubectlVersion,
  kustomize,
  type K8sObject,
} from './kustomize.ts';

// Renders every overlay of docker/k8s with the kubectl on PATH (CI: Debian's, kustomize v2.0.3)
// and checks what a cluster would be given. No cluster is involved: kubectl only renders.

const ROOT = path.join(import.meta.dirname, '..');

interface Overlay {
  name: string;
  /** Replicas of api and auth, and the autoscalers' floor. */
  replicas: number;
}

const OVERLAYS: Overlay[] = [
  { name: 'development', replicas: 1 },
  { name: 'production', replicas: 3 },
];

const SERVICES = ['foodshare-api', 'foodshare-auth'];

interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { secretRef?: { name: string }; configMapRef?: { name: string } }[];
  env?: {
    name: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
}

interface Probe {
  httpGet?: { path: string; port: string | number };
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}

interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

type Workload = K8sObject & { spec: { replicas?: number; template: PodTemplate } };

/** The GET routes a source file registers (`app.get('/path', ...)`). */
async function routesOf(file: string): Promise<string[]> {
  const source = await readFile(path.join(ROOT, file), 'utf8');
  return [...source.matchAll(/app\.get\('([^']+)'/g)].map((match) => match[1]!);
}

/** `name` → `newName:newTag` of an overlay's `images:`. */
async function imagesOf(overlay: string): Promise<Map<string, string>> {
  const kustomization = parse(
    await readFile(path.join(K8S_DIR, 'overlays', overlay, 'kustomization.yaml'), 'utf8'),
  ) as { images: { name: string; newName?: string; newTag: string }[] };
  return new Map(
    kustomization.images.map((image) => [
      image.name,
      `${image.newName ?? image.name}:${image.newTag}`,
    ]),
  );
}

function workloads(objects: K8sObject[]): Workload[] {
  return objects.filter((o): o is Workload => o.kind === 'Deployment' || o.kind === 'Job');
}

function containersOf(workload: Workload): Container[] {
  const spec = workload.spec.template.spec;
  return [...(spec.initContainers ?? []), ...spec.containers];
}

function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the render`);
  return found;
}

/**
 * The environment a container starts with: its ConfigMaps and Secrets (envFrom) and its own
 * `env` values, as the kubelet assembles them (later sources win).
 */
function environmentOf(objects: K8sObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      Object.assign(env, find(objects, 'ConfigMap', source.configMapRef.name).data);
    }
    if (source.secretRef) {
      const data = find(objects, 'Secret', source.secretRef.name).data as Record<string, string>;
      for (const [key, value] of Object.entries(data)) {
        env[key] = Buffer.from(value, 'base64').toString('utf8');
      }
    }
  }
  for (const variable of container.env ?? []) {
    const { value } = variable as { value?: string };
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

/** The image a workload of the base names before an overlay sets registry and tag. */
function baseImageOf(workload: Workload): string {
  return workload.kind === 'Job' ? 'foodshare-cli' : workload.metadata.name;
}

let tree: Awaited<ReturnType<typeof k8sTreeWithExampleSecrets>>;
const renders = new Map<string, K8sObject[]>();
let healthRoutes: string[];
let metricsRoutes: string[];

beforeAll(async () => {
  await kubectlVersion();
  tree = await k8sTreeWithExampleSecrets();
  for (const overlay of OVERLAYS) {
    renders.set(
      `overlays/${overlay.name}`,
      await kustomize(`${tree.dir}/overlays/${overlay.name}`),
    );
    renders.set(
      `first-run/${overlay.name}`,
      await kustomize(`${tree.dir}/first-run/${overlay.name}`),
    );
  }
  healthRoutes = await routesOf('packages/server-kit/src/plugins/health.ts');
  metricsRoutes = await routesOf('packages/server-kit/src/plugins/metrics.ts');
}, 180_000);

afterAll(async () => {
  await tree?.remove();
});

describe.each(OVERLAYS)('the $name overlay', (overlay) => {
  const render = () => renders.get(`overlays/${overlay.name}`)!;

  it('runs the images the overlay names, with a tag', async () => {
    const images = await imagesOf(overlay.name);
    const used = workloads(render());
    expect(used.map((w) => w.metadata.name).sort()).toEqual([
      'foodshare-api',
      'foodshare-auth',
      'foodshare-migrate',
    ]);
    for (const workload of used) {
      for (const container of containersOf(workload)) {
        expect(container.image, workload.metadata.name).toBe(images.get(baseImageOf(workload)));
        expect(container.image).toMatch(/:[\w][\w.-]*$/);
      }
    }
  });

  it(`runs ${overlay.replicas} replica(s) of api and auth, the autoscalers' floor`, () => {
    for (const name of SERVICES) {
      const deployment = find(render(), 'Deployment', name) as Workload;
      expect(deployment.spec.replicas).toBe(overlay.replicas);
      const autoscaler = find(render(), 'HorizontalPodAutoscaler', name) as K8sObject & {
        spec: { minReplicas: number; maxReplicas: number; scaleTargetRef: { name: string } };
      };
      expect(autoscaler.spec.scaleTargetRef.name).toBe(name);
      expect(autoscaler.spec.minReplicas).toBe(overlay.replicas);
      expect(autoscaler.spec.maxReplicas).toBeGreaterThanOrEqual(overlay.replicas);
    }
  });

  it('gives api and auth a configuration they start with', () => {
    const loaders = { 'foodshare-api': loadApiConfig, 'foodshare-auth': loadAuthConfig };
    for (const [name, loadConfig] of Object.entries(loaders)) {
      const deployment = find(render(), 'Deployment', name) as Workload;
      const [container] = deployment.spec.template.spec.containers;
      const env = environmentOf(render(), container!);
      // The examples say CHANGE_ME where the operator generates a key (openssl rand -base64 32).
      if (name === 'foodshare-auth') {
        expect(env.KEY_ENCRYPTION_KEY).toBe('CHANGE_ME');
        env.KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
        env.CLIENT_SECRET_PEPPER = randomBytes(32).toString('base64');
      }
      const config = loadConfig(env);
      expect(config.NODE_ENV).toBe('production');
      const port = container!.ports!.find((p) => p.name === 'http')!.containerPort;
      expect(config.PORT).toBe(port);
      expect(config.HOST).toBe('0.0.0.0');
      // The origin the Ingress serves.
      const ingress = find(render(), 'Ingress', 'foodshare') as K8sObject & {
        spec: { rules: { host: string }[]; tls?: unknown[] };
      };
      const origin = new URL(config.BASE_URL);
      expect(origin.hostname).toBe(ingress.spec.rules[0]!.host);
      expect(origin.protocol).toBe(ingress.spec.tls ? 'https:' : 'http:');
    }
  });

  it('labels only the servers, so that a release can apply the migration Job before them', () => {
    // `kubectl apply -k ... -l app.kubernetes.io/component!=server` (docker/k8s/README.md).
    const servers = render().filter(
      (o) =>
        (o.metadata.labels as Record<string, string> | undefined)?.[
          'app.kubernetes.io/component'
        ] === 'server',
    );
    expect(servers.map((o) => `${o.kind} ${o.metadata.name}`).sort()).toEqual([
      'Deployment foodshare-api',
      'Deployment foodshare-auth',
    ]);
  });

  it('gives every container CPU and memory requests and a memory limit', () => {
    for (const workload of workloads(render())) {
      for (const container of containersOf(workload)) {
        const where = `${workload.metadata.name}/${container.name}`;
        expect(container.resources?.requests?.cpu, where).toBeTruthy();
        expect(container.resources?.requests?.memory, where).toBeTruthy();
        expect(container.resources?.limits?.memory, where).toBeTruthy();
      }
    }
  });

  it('probes api and auth at the health routes the services serve', () => {
    expect(healthRoutes).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    for (const name of SERVICES) {
      const deployment = find(render(), 'Deployment', name) as Workload;
      const [container] = deployment.spec.template.spec.containers;
      const portNames = (container!.ports ?? []).map((port) => port.name);
      const probes = [container!.startupProbe, container!.readinessProbe, container!.livenessProbe];
      for (const probe of probes) {
        expect(probe?.httpGet, name).toBeDefined();
        expect(healthRoutes).toContain(probe!.httpGet!.path);
        expect(portNames).toContain(probe!.httpGet!.port);
      }
      expect(container!.readinessProbe!.httpGet!.path).toBe('/health/ready');
    }
  });

  it('has Prometheus scrape api and auth at /metrics on their port', () => {
    expect(metricsRoutes).toContain('/metrics');
    for (const name of SERVICES) {
      const template = (find(render(), 'Deployment', name) as Workload).spec.template;
      const port = template.spec.containers[0]!.ports!.find((p) => p.name === 'http')!;
      expect(template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port.containerPort),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('routes neither /metrics nor /health through the Ingress', () => {
    const ingress = find(render(), 'Ingress', 'foodshare') as K8sObject & {
      spec: { rules: { http: { paths: { path: string; pathType: string }[] } }[] };
    };
    const paths = ingress.spec.rules.flatMap((rule) => rule.http.paths);
    expect(paths.length).toBeGreaterThan(0);
    for (const internal of [...metricsRoutes, ...healthRoutes]) {
      for (const { path: routed, pathType } of paths) {
        const reaches =
          pathType === 'Exact'
            ? internal === routed
            : internal === routed || internal.startsWith(`${routed.replace(/\/$/, '')}/`);
        expect(reaches, `${routed} (${pathType}) reaches ${internal}`).toBe(false);
      }
    }
  });

  it('denies all traffic in the namespace but what the policies allow', () => {
    const policies = render().filter((o) => o.kind === 'NetworkPolicy') as (K8sObject & {
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        policyTypes: string[];
        ingress?: unknown[];
        egress?: { ports?: { port: number | string; protocol: string }[] }[];
      };
    })[];
    const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0);
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(deny?.spec.ingress).toBeUndefined();
    expect(deny?.spec.egress).toBeUndefined();

    const selects = (policy: (typeof policies)[number], labels: Record<string, string>) => {
      const selector = policy.spec.podSelector as {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values: string[] }[];
      };
      return (
        Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
        (selector.matchExpressions ?? []).every(
          (e) => e.operator === 'In' && e.values.includes(labels[e.key] ?? ''),
        )
      );
    };
    const egressPorts = (labels: Record<string, string>) =>
      policies
        .filter((p) => p.spec.policyTypes.includes('Egress') && selects(p, labels))
        .flatMap((p) => p.spec.egress ?? [])
        .flatMap((rule) => rule.ports ?? [])
        .map((port) => `${port.protocol}/${port.port}`);

    for (const workload of workloads(render())) {
      const labels = workload.spec.template.metadata.labels;
      expect(egressPorts(labels), workload.metadata.name).toEqual(
        expect.arrayContaining(['UDP/53', 'TCP/53', 'TCP/5432', 'TCP/6379']),
      );
    }
    for (const name of SERVICES) {
      const labels = (find(render(), 'Deployment', name) as Workload).spec.template.metadata.labels;
      const ingressFrom = policies.filter(
        (p) => p.spec.policyTypes.includes('Ingress') && p.spec.ingress && selects(p, labels),
      );
      expect(ingressFrom.map((p) => p.metadata.name).sort(), name).toEqual([
        // api fetches auth's published keys (docs/oauth.md §11).
        ...(name === 'foodshare-auth' ? ['foodshare-allow-auth-keys-from-api'] : []),
        'foodshare-allow-from-ingress-controller',
        'foodshare-allow-metrics-scrape',
      ]);
    }
    // api calls nothing outside but auth's keys; auth also posts back-channel logout tokens over
    // https.
    const api = { 'app.kubernetes.io/name': 'foodshare-api' };
    expect(egressPorts(api)).not.toContain('TCP/443');
    expect(egressPorts(api)).toContain('TCP/3002');
  });
});

it.each(['overlays', 'first-run'])(
  'never runs a `latest` image in production, and pulls from a registry (%s)',
  (folder) => {
    for (const workload of workloads(renders.get(`${folder}/production`)!)) {
      for (const container of containersOf(workload)) {
        expect(container.image).not.toMatch(/:latest$/);
        expect(container.image).toMatch(/^[a-z0-9.-]+\.[a-z]+(:\d+)?\//);
      }
    }
  },
);

describe.each(OVERLAYS)('every reference of the $name renders', (overlay) => {
  it.each(['overlays', 'first-run'])('resolves within the %s render', (folder) => {
    const objects = renders.get(`${folder}/${overlay.name}`)!;
    const secrets = new Map(
      objects
        .filter((o) => o.kind === 'Secret')
        .map((o) => [o.metadata.name, Object.keys(o.data ?? {})]),
    );
    const configMaps = new Map(
      objects
        .filter((o) => o.kind === 'ConfigMap')
        .map((o) => [o.metadata.name, Object.keys(o.data ?? {})]),
    );
    const references: string[] = [];
    for (const workload of workloads(objects)) {
      const spec = workload.spec.template.spec;
      for (const container of containersOf(workload)) {
        for (const source of container.envFrom ?? []) {
          if (source.secretRef) references.push(`Secret ${source.secretRef.name}`);
          if (source.configMapRef) references.push(`ConfigMap ${source.configMapRef.name}`);
        }
        for (const { valueFrom } of container.env ?? []) {
          const secretKey = valueFrom?.secretKeyRef;
          if (secretKey) {
            expect(secrets.get(secretKey.name) ?? []).toContain(secretKey.key);
          }
          const configKey = valueFrom?.configMapKeyRef;
          if (configKey) {
            expect(configMaps.get(configKey.name) ?? []).toContain(configKey.key);
          }
        }
      }
      for (const volume of spec.volumes ?? []) {
        if (volume.secret) references.push(`Secret ${volume.secret.secretName}`);
        if (volume.configMap) references.push(`ConfigMap ${volume.configMap.name}`);
      }
    }
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      const [kind, name] = reference.split(' ') as [string, string];
      const known = kind === 'Secret' ? secrets : configMaps;
      expect(known.has(name), `${reference} is not in the render`).toBe(true);
      // Generated names carry a hash of the content, so that a change rolls the pods out.
      if (kind === 'Secret') expect(name).toMatch(/-[a-z0-9]{10}$/);
    }
    for (const object of objects) {
      expect(object.metadata.namespace ?? 'foodshare', object.metadata.name).toBe('foodshare');
    }
  });
});

describe.each(OVERLAYS)('the first run of the $name overlay', (overlay) => {
  const render = () => renders.get(`first-run/${overlay.name}`)!;

  it('adds the first-run Job, with the script and the CLI image of the overlay', async () => {
    const overlayRender = renders.get(`overlays/${overlay.name}`)!;
    const added = render().filter(
      (o) => !overlayRender.some((p) => p.kind === o.kind && p.metadata.name === o.metadata.name),
    );
    expect(
      added.map((o) => `${o.kind} ${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort(),
    ).toEqual([
      'ConfigMap foodshare-first-run-script',
      'Job foodshare-first-run',
      'Secret foodshare-first-run',
    ]);
    const job = find(render(), 'Job', 'foodshare-first-run') as Workload;
    const [container] = job.spec.template.spec.containers;
    expect(container!.image).toBe((await imagesOf(overlay.name)).get('foodshare-cli'));
    const script = added.find((o) => o.kind === 'ConfigMap') as K8sObject & {
      data: Record<string, string>;
    };
    expect(script.data['first-run.sh']).toBe(
      await readFile(path.join(K8S_DIR, 'first-run', 'base', 'first-run.sh'), 'utf8'),
    );
    const secret = added.find((o) => o.kind === 'Secret') as K8sObject & {
      data: Record<string, string>;
    };
    expect(Object.keys(secret.data)).toEqual(
      expect.arrayContaining(['FIRST_ORGA_EMAIL', 'FIRST_ORGA_PASSWORD']),
    );
  });
});
