import { EsError } from './es-error.js';

/** Constructors for the errors that recur across modules, with Elasticsearch's exact types. */
export const errors = {
  indexNotFound: (index: string) =>
    new EsError(404, 'index_not_found_exception', `no such index [${index}]`, {
      'resource.type': 'index_or_alias',
      'resource.id': index,
      index_uuid: '_na_',
      index,
    }),
  indexClosed: (index: string, uuid = '_na_') =>
    new EsError(400, 'index_closed_exception', 'closed', { index_uuid: uuid, index }),
  illegalArgument: (reason: string) => new EsError(400, 'illegal_argument_exception', reason),
  parse: (reason: string) => new EsError(400, 'parse_exception', reason),
  unauthenticated: (reason: string, realm: string) => {
    const challenge = `Basic realm="${realm}", charset="UTF-8"`;
    return new EsError(401, 'security_exception', reason, { header: { 'WWW-Authenticate': challenge } }, { 'WWW-Authenticate': challenge });
  },
  forbidden: (reason: string) => new EsError(403, 'security_exception', reason),
  badGateway: (reason: string) => new EsError(502, 'bad_gateway_exception', reason),
  gatewayTimeout: (reason: string) => new EsError(504, 'gateway_timeout_exception', reason),
  contentTooLong: (limit: number) =>
    new EsError(413, 'content_too_long_exception', `request body is too large; the limit is [${limit}] bytes (http.max_content_length)`),
};
