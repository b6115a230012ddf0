import type { IncomingMessage } from 'node:http';
import type { WebSocketServer } from 'ws';
import { REQUEST_ID_HEADER, requestIdOfHeaders } from '../observability/http.js';

/**
 * A WebSocket connection's request id: a sane incoming X-Request-Id on the
 * upgrade, else a new one, echoed in the 101 answer. Every call over the
 * socket carries it in its context (and so in its log lines).
 */
export function echoRequestIds(wss: WebSocketServer) {
  const ids = new WeakMap<IncomingMessage, string>();
  const of = (req: IncomingMessage) => {
    let id = ids.get(req);
    if (!id) {
      id = requestIdOfHeaders(req.headers);
      ids.set(req, id);
    }
    return id;
  };
  wss.on('headers', (headers, req) => {
    headers.push(`${REQUEST_ID_HEADER}: ${of(req)}`);
  });
  return { of };
}
