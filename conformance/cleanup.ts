import type { EsClient } from './es-client.js';
import type { HttpCall } from './api-spec.js';

/** Indices the gateway keeps for itself: never deleted between tests. */
const PROTECTED_PREFIX = '.gateway-';

/**
 * Puts the server back to an empty state between tests, as the Elasticsearch test framework
 * does: data streams, every non-system index (with its aliases), then templates. Best effort:
 * an endpoint the server does not implement (404/405/400) is simply passed over.
 */
export async function wipeCluster(client: EsClient, signal?: AbortSignal): Promise<void> {
  const send = async (method: string, url: string): Promise<number> => {
    try {
      return (await client.send(call(method, url), signal)).status;
    } catch {
      return 0;
    }
  };
  await send('DELETE', '/_data_stream/*?expand_wildcards=all');
  const status = await send('DELETE', `/*,-${PROTECTED_PREFIX}*?expand_wildcards=all&ignore_unavailable=true&allow_no_indices=true`);
  if (status >= 300 || status === 0) await deleteListedIndices(client, signal);
  await Promise.all([
    send('DELETE', '/_index_template/*'),
    send('DELETE', '/_template/*'),
  ]);
  await send('DELETE', '/_component_template/*');
}

/** Fallback when wildcard deletion is refused (e.g. `action.destructive_requires_name`). */
async function deleteListedIndices(client: EsClient, signal?: AbortSignal): Promise<void> {
  let names: string[];
  try {
    const response = await client.send(call('GET', '/_cat/indices?format=json&h=index&expand_wildcards=all'), signal);
    if (response.status !== 200 || !Array.isArray(response.body)) return;
    names = (response.body as Array<{ index?: unknown }>)
      .map((row) => String(row.index ?? ''))
      .filter((name) => name !== '' && !name.startsWith('.'));
  } catch {
    return;
  }
  for (let i = 0; i < names.length; i += 50) {
    const batch = names.slice(i, i + 50).map(encodeURIComponent).join(',');
    try {
      await client.send(call('DELETE', `/${batch}?expand_wildcards=all&ignore_unavailable=true`), signal);
    } catch {
      // best effort
    }
  }
}

function call(method: string, url: string): HttpCall {
  return { method, url, headers: {} };
}
