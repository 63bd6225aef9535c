import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, waitFor } from './disposable-servers.ts';

// A PgBouncer of a test's own in front of a PostgreSQL server, on a free loopback port, run
// from a deployment's pgbouncer.ini with only what a test must change replaced: where it
// listens, whom it trusts, and which server it forwards to.

export interface DisposablePgBouncer {
  /** `url` with its host and port replaced by PgBouncer's. */
  through(url: string): string;
  dispose(): Promise<void>;
}

type Sections = Record<string, Record<string, string>>;

/** The ini text with the given keys replaced in their sections, or added at a section's end. */
export function overrideIni(text: string, overrides: Sections): string {
  const pending = Object.fromEntries(
    Object.entries(overrides).map(([section, keys]) => [section, { ...keys }]),
  );
  const out: string[] = [];
  let section = '';
  const flush = () => {
    for (const [key, value] of Object.entries(pending[section] ?? {}))
      out.push(`${key} = ${value}`);
    delete pending[section];
  };
  for (const line of text.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      flush();
      section = header[1]!;
      out.push(line);
      continue;
    }
    const key = /^\s*([^;=\s][^=]*?)\s*=/.exec(line)?.[1];
    const replacement = key === undefined ? undefined : pending[section]?.[key];
    if (replacement === undefined) {
      out.push(line);
    } else {
      out.push(`${key} = ${replacement}`);
      delete pending[section]![key!];
    }
  }
  flush();
  for (const [name, keys] of Object.entries(pending)) {
    out.push(`[${name}]`, ...Object.entries(keys).map(([key, value]) => `${key} = ${value}`));
  }
  return out.join('\n');
}

/**
 * PgBouncer from `configFile`, forwarding every database to the server of `serverUrl`, which
 * must trust loopback connections (as the test servers do).
 */
export async function startDisposablePgBouncer(options: {
  configFile: string;
  serverUrl: string;
}): Promise<DisposablePgBouncer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foodshare-pgbouncer-'));
  const server = new URL(options.serverUrl);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const config = overrideIni(await readFile(options.configFile, 'utf8'), {
    databases: { '*': `host=${server.hostname} port=${server.port || 5432}` },
    pgbouncer: {
      listen_addr: '127.0.0.1',
      listen_port: String(port),
      auth_type: 'trust',
      auth_file: path.join(dir, 'userlist.txt'),
      unix_socket_dir: '',
      logfile: '',
      pidfile: '',
    },
  });
  await writeFile(path.join(dir, 'pgbouncer.ini'), config);
  await writeFile(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  // PgBouncer refuses to run as root (CI containers): it then drops to nobody, who must read these.
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    'pgbouncer',
    [...(asRoot ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')],
    { stdio: 'ignore' },
  );
  const through = (url: string) => {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(port);
    return rewritten.toString();
  };
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('PgBouncer answering', async () => {
      const client = new pg.Client({ connectionString: through(options.serverUrl) });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  } catch (error) {
    await dispose();
    throw error;
  }
  return { through, dispose };
}
