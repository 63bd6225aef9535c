import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const K8S_DIR = path.join(import.meta.dirname, '..', 'docker', 'k8s');

/** What `kubectl kustomize` renders: every object, as plain data. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The kubectl on PATH, with the version of the kustomize it embeds (v2.0.3 in Debian's 1.20). */
export async function kubectlVersion(): Promise<string> {
  try {
    const { stdout } = await run('kubectl', ['version', '--client'], { timeout: 30_000 });
    return stdout.trim();
  } catch (error) {
    throw new Error(
      'kubectl is needed to render docker/k8s: install Debian\'s "kubernetes-client" ' +
        '(apt-get install -y kubernetes-client), as .ci/run does',
      { cause: error },
    );
  }
}

async function filesEndingWith(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * A copy of docker/k8s whose git-ignored secret files (`*.env`) are their committed examples, as
 * an operator's checkout has them once filled in: the overlays cannot render without them.
 */
export async function k8sTreeWithExampleSecrets(): Promise<{
  dir: string;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foodshare-k8s-'));
  const tree = path.join(dir, 'k8s');
  await cp(K8S_DIR, tree, { recursive: true, filter: (source) => !source.endsWith('.env') });
  for (const example of await filesEndingWith(tree, '.env.example')) {
    await cp(example, example.slice(0, -'.example'.length));
  }
  return { dir: tree, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** `kubectl kustomize <dir>`, parsed. Fails on any error of kustomize (its warnings pass). */
export async function kustomize(dir: string): Promise<K8sObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', dir], {
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return parseAllDocuments(stdout).map((document) => {
    const [error] = document.errors;
    if (error) throw new Error(`kubectl kustomize ${dir} printed invalid YAML`, { cause: error });
    return document.toJS() as K8sObject;
  });
}
