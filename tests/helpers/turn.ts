import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { freePort, tempDataDir } from './processes.js';

/**
 * A real coturn (Debian's /usr/bin/turnserver) for tests, in the REST-API mode
 * the app's credentials are made for (use-auth-secret), and a TURN client small
 * enough to read: an Allocate over UDP with long-term credentials (RFC 5389 /
 * RFC 5766), written here so the test depends on nothing but coturn itself.
 */
export const TURNSERVER = '/usr/bin/turnserver';
export const hasTurnServer = () => existsSync(TURNSERVER);

export type RunningTurn = { port: number; url: string; realm: string; stop(): Promise<void> };

export async function startTurnServer(secret: string): Promise<RunningTurn> {
  const port = await freePort();
  const realm = 'poshan.test';
  const data = tempDataDir('poshan-turn-');
  const minPort = 40_000 + Math.floor(Math.random() * 20_000);
  const child: ChildProcess = spawn(
    TURNSERVER,
    [
      '-n',
      '--listening-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--relay-ip=127.0.0.1',
      `--min-port=${minPort}`,
      `--max-port=${minPort + 100}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      `--realm=${realm}`,
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--log-file=stdout',
      '--simple-log',
      `--userdb=${data.dir}/turndb`,
      `--pidfile=${data.dir}/turnserver.pid`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (d) => {
    log += String(d);
  });
  child.stderr?.on('data', (d) => {
    log += String(d);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    data.remove();
  };
  // Ready once it answers a STUN Binding request.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`turnserver exited at start:\n${log}`);
    const answer = await stunRequest(port, bindingRequest(), 300).catch(() => null);
    if (answer) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`turnserver did not answer on port ${port}:\n${log}`);
    }
  }
  return { port, url: `turn:127.0.0.1:${port}?transport=udp`, realm, stop };
}

// ——— A minimal STUN/TURN client ———

const MAGIC = 0x2112a442;
const ATTR = {
  USERNAME: 0x0006,
  MESSAGE_INTEGRITY: 0x0008,
  ERROR_CODE: 0x0009,
  REALM: 0x0014,
  NONCE: 0x0015,
  XOR_RELAYED_ADDRESS: 0x0016,
  REQUESTED_TRANSPORT: 0x0019,
} as const;
const BINDING_REQUEST = 0x0001;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;

type Attr = { type: number; value: Buffer };

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function message(type: number, attrs: Attr[], integrityKey?: Buffer): Buffer {
  const id = randomBytes(12);
  const body = Buffer.concat(attrs.map((a) => attribute(a.type, a.value)));
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(MAGIC, 4);
  id.copy(header, 8);
  if (!integrityKey) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  // MESSAGE-INTEGRITY covers everything before it, with the length already counting it (24 bytes).
  header.writeUInt16BE(body.length + 24, 2);
  const hmac = createHmac('sha1', integrityKey)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, attribute(ATTR.MESSAGE_INTEGRITY, hmac)]);
}

const bindingRequest = () => message(BINDING_REQUEST, []);

function parse(buf: Buffer): { type: number; attrs: Map<number, Buffer> } {
  const type = buf.readUInt16BE(0);
  const length = buf.readUInt16BE(2);
  const attrs = new Map<number, Buffer>();
  let at = 20;
  while (at + 4 <= 20 + length) {
    const t = buf.readUInt16BE(at);
    const l = buf.readUInt16BE(at + 2);
    attrs.set(t, buf.subarray(at + 4, at + 4 + l));
    at += 4 + Math.ceil(l / 4) * 4;
  }
  return { type, attrs };
}

/** A UDP socket that asks one question at a time (a TURN server ties its nonce to the client's address and port). */
function stunClient(port: number) {
  const socket = createSocket('udp4');
  return {
    ask(request: Buffer, timeoutMs = 3000): Promise<Buffer> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          socket.removeAllListeners('message');
          reject(new Error('no STUN answer'));
        }, timeoutMs);
        socket.once('message', (msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
        socket.send(request, port, '127.0.0.1');
      });
    },
    close: () => socket.close(),
  };
}

async function stunRequest(port: number, request: Buffer, timeoutMs = 3000): Promise<Buffer> {
  const client = stunClient(port);
  try {
    return await client.ask(request, timeoutMs);
  } finally {
    client.close();
  }
}

export type AllocateResult = { ok: true; relayPort: number } | { ok: false; errorCode: number };

/**
 * A TURN Allocate with long-term credentials: the first request is refused
 * with 401 and a realm and nonce, the second carries USERNAME, REALM, NONCE
 * and MESSAGE-INTEGRITY keyed with MD5(username:realm:password).
 */
export async function turnAllocate(port: number, username: string, password: string): Promise<AllocateResult> {
  const transport = { type: ATTR.REQUESTED_TRANSPORT, value: Buffer.from([17, 0, 0, 0]) };
  const client = stunClient(port);
  try {
    return await allocateWith(client, transport, username, password);
  } finally {
    client.close();
  }
}

async function allocateWith(
  client: ReturnType<typeof stunClient>,
  transport: Attr,
  username: string,
  password: string,
): Promise<AllocateResult> {
  const challenge = parse(await client.ask(message(ALLOCATE_REQUEST, [transport])));
  const realm = challenge.attrs.get(ATTR.REALM);
  const nonce = challenge.attrs.get(ATTR.NONCE);
  if (!realm || !nonce) throw new Error('the TURN server sent no realm and nonce');
  const key = createHash('md5').update(`${username}:${realm.toString()}:${password}`).digest();
  const answer = parse(
    await client.ask(
      message(
        ALLOCATE_REQUEST,
        [
          transport,
          { type: ATTR.USERNAME, value: Buffer.from(username) },
          { type: ATTR.REALM, value: realm },
          { type: ATTR.NONCE, value: nonce },
        ],
        key,
      ),
    ),
  );
  if (answer.type === ALLOCATE_SUCCESS) {
    const relayed = answer.attrs.get(ATTR.XOR_RELAYED_ADDRESS)!;
    return { ok: true, relayPort: relayed.readUInt16BE(2) ^ (MAGIC >>> 16) };
  }
  const error = answer.attrs.get(ATTR.ERROR_CODE);
  return { ok: false, errorCode: error ? error[2]! * 100 + error[3]! : 0 };
}
