// Preloaded (`node --import`) into a tool a test runs that must not reach the network: every
// DNS look-up and socket connection it tries is written to the file RECORD_CONNECTIONS_TO names,
// and refused.
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';

const file = process.env.RECORD_CONNECTIONS_TO;
if (file === undefined) throw new Error('RECORD_CONNECTIONS_TO names no file');
const target = file;

function refuse(what: string): never {
  appendFileSync(target, `${what}\n`);
  throw new Error(`no network here: ${what}`);
}

dns.lookup = ((hostname: string) => refuse(`dns ${hostname}`)) as unknown as typeof dns.lookup;
dns.promises.lookup = (hostname: string) => refuse(`dns ${hostname}`);
const { connect } = net.Socket.prototype as { connect: (...args: unknown[]) => net.Socket };
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const [first] = args;
  const options: unknown = Array.isArray(first) ? first[0] : first;
  // A local IPC socket is no network.
  if (typeof options === 'object' && options !== null && 'path' in options) {
    return connect.apply(this, args);
  }
  return refuse(`connect ${JSON.stringify(first)}`);
};
