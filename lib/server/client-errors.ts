import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { letGo } from '../connections/index.js';
import { EsError, errorBody } from '../errors/index.js';

/**
 * What a request Node's HTTP parser refused gets (a line or headers over its limits, a control
 * character in a header, a bad chunk size, an unknown method…): an Elasticsearch-shaped error body
 * like every other answer, then the connection closes — the parser cannot find the next request.
 * A client that reset its connection, or ended its side in the middle of a request (it will never
 * send the rest), has gone: its connection is closed without an answer, as Elasticsearch closes a
 * channel its client shut, and a few at a time (lib/connections letGo), so thousands of clients
 * vanishing at once are not all torn down in one piece of work.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE') {
    letGo(socket);
    return;
  }
  const e = err.code === 'HPE_HEADER_OVERFLOW'
    ? new EsError(431, 'too_long_http_header_exception', 'the request line or its headers are larger than the limit (16kb)')
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new EsError(408, 'request_timeout_exception', 'the request was not received in time')
      : new EsError(400, 'illegal_argument_exception', `malformed HTTP request: ${err.code ?? 'parse error'}${err.message ? ` (${err.message})` : ''}`);
  const body = JSON.stringify(errorBody(e));
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Elastic-Product: Elasticsearch\r\nConnection: close\r\n\r\n${body}`,
  );
}
