import WebSocket from 'ws';

/**
 * A bare tRPC WebSocket client speaking the wire protocol, for tests that
 * must see exactly what the server does: the answer to each call, when the
 * socket is closed and with which code. (The tRPC client reconnects and
 * retries by itself, which hides both.)
 */
export type RawAnswer = {
  id: number;
  result?: { type: string; data?: { json?: unknown } };
  error?: { json: { message: string; data: { code: string } } };
};

export async function rawSocket(baseUrl: string, token?: string) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/trpc?connectionParams=1`);
  const answers = new Map<number, (a: RawAnswer) => void>();
  const stream: RawAnswer[] = [];
  let nextId = 1;
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
  );
  ws.on('message', (raw) => {
    const text = String(raw);
    if (text === 'PING' || text === 'PONG') return;
    const answer = JSON.parse(text) as RawAnswer;
    stream.push(answer);
    answers.get(answer.id)?.(answer);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ method: 'connectionParams', data: token ? { token } : {} }));
  const openedAt = Date.now();

  return {
    ws,
    openedAt,
    closed,
    /** Every message received, in order (subscription events included). */
    stream,
    /** A query or mutation; resolves with its answer, or rejects if the socket closes first. */
    call(path: string, type: 'query' | 'mutation' = 'query', input?: unknown): Promise<RawAnswer> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        answers.set(id, resolve);
        void closed.then(() => reject(new Error(`socket closed before ${path} was answered`)));
        ws.send(JSON.stringify({ id, method: type, params: { path, input: input === undefined ? {} : { json: input } } }));
      });
    },
    /** Starts a subscription; its messages land in `stream` under the returned id. */
    subscribe(path: string, input?: unknown): number {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method: 'subscription', params: { path, input: input === undefined ? {} : { json: input } } }));
      return id;
    },
    isOpen: () => ws.readyState === WebSocket.OPEN,
    close: () => ws.close(),
  };
}

export const errorCode = (a: RawAnswer) => a.error?.json.data.code ?? null;
