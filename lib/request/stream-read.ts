/**
 * What a live stream reads of the engine (README, "Live streams"): a document stream reads its
 * document (`GET /{index}/_doc/{id}`), a search stream runs its search (`POST /{index}/_search`),
 * in either address style (`/{app}/{type}/{id}`, `/{app}/{type}/_search`), with the request's
 * parameters but the stream's own. The route check of a scoped credential's stream and the
 * stream's reads are both made of it, so that what is checked is what is read.
 */
export interface StreamRead {
  method: 'GET' | 'POST';
  segments: readonly string[];
  /** The request's parameters without the stream's own (`STREAM_PARAMS`). */
  params: ReadonlyMap<string, string>;
}

/** The gateway's own parameters of a stream request: the engine never sees them. */
export const STREAM_PARAMS: readonly string[] = ['stream', 'streamonly', 'since'];

const isName = (s: string | undefined): s is string => !!s && !s.startsWith('_');

/** The engine read a stream request makes; undefined for a request that is no stream's (see lib/streams' `streamTarget`). */
export function streamRead(method: string, segments: readonly string[], params: ReadonlyMap<string, string>): StreamRead | undefined {
  const [index, second, third] = segments;
  if (!isName(index)) return undefined;
  const m = method.toUpperCase();
  let read: Pick<StreamRead, 'method' | 'segments'> | undefined;
  if (segments.length === 3 && m === 'GET' && (second === '_doc' || (isName(second) && third !== '_search'))) read = { method: 'GET', segments: [index, '_doc', third] };
  else if ((m === 'GET' || m === 'POST') && ((segments.length === 2 && second === '_search') || (segments.length === 3 && isName(second) && third === '_search'))) {
    read = { method: 'POST', segments: [index, '_search'] };
  }
  if (!read) return undefined;
  let own = false;
  for (const name of STREAM_PARAMS) if (params.has(name)) own = true;
  if (!own) return { ...read, params };
  const kept = new Map(params);
  for (const name of STREAM_PARAMS) kept.delete(name);
  return { ...read, params: kept };
}
