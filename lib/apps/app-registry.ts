import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { TYPE_FIELD } from './type-field.js';

export const APPS_INDEX = '.gateway-apps';

export interface AppRecord {
  app: string;
  created_at: string;
}

/** The default mapping of an app's index: the gateway keeps each document's type in TYPE_FIELD. */
export const APP_MAPPINGS = { properties: { [TYPE_FIELD]: { type: 'keyword' } } };

/**
 * Registered apps, kept in a system index through the Backend so every node and both engines see
 * the same list. Lookups read the system index each time: registration changes are rare, and a
 * read is cheap next to the request that needs it.
 */
export class AppRegistry {
  /** The registry's index, created hidden once per process (an answer that it exists counts). */
  private indexReady: Promise<unknown> | undefined;

  constructor(private readonly backend: Backend) {}

  async get(app: string): Promise<AppRecord | undefined> {
    const res = await callJson<{ found?: boolean; _source?: AppRecord }>(
      this.backend, 'GET', `/${APPS_INDEX}/_doc/${encodeURIComponent(app)}`,
    );
    return res.status === 200 && res.body.found ? res.body._source : undefined;
  }

  async list(): Promise<AppRecord[]> {
    const res = await callJson<{ hits?: { hits: Array<{ _source: AppRecord }> } }>(
      this.backend, 'POST', `/${APPS_INDEX}/_search`, { size: 10000, query: { match_all: {} } },
    );
    if (res.status === 404) return [];
    if (res.status !== 200) throw new EsError(res.status, 'exception', `listing apps failed with status ${res.status}`);
    return (res.body.hits?.hits ?? []).map((h) => h._source).sort((a, b) => a.app.localeCompare(b.app));
  }

  /** Creates the app's index (or adopts an existing index) and registers it. */
  async create(app: string): Promise<{ indexCreated: boolean }> {
    if (await this.get(app)) {
      throw new EsError(400, 'resource_already_exists_exception', `app [${app}] already exists`, { index: app });
    }
    const created = await callJson<{ error?: { type: string; reason: string } }>(
      this.backend, 'PUT', `/${encodeURIComponent(app)}`, { mappings: APP_MAPPINGS },
    );
    let indexCreated = true;
    if (created.status !== 200) {
      if (created.body.error?.type !== 'resource_already_exists_exception') throw relay(created.status, created.body);
      indexCreated = false;
      const mapped = await callJson(this.backend, 'PUT', `/${encodeURIComponent(app)}/_mapping`, APP_MAPPINGS);
      if (mapped.status !== 200) throw relay(mapped.status, mapped.body as { error?: { type: string; reason: string } });
    }
    const record: AppRecord = { app, created_at: new Date().toISOString() };
    // hidden, like every system index, so that no wildcard reaches it
    this.indexReady ??= callJson(this.backend, 'PUT', `/${APPS_INDEX}`, { settings: { 'index.hidden': true, number_of_shards: 1 } })
      .catch((err) => {
        this.indexReady = undefined;
        throw err;
      });
    await this.indexReady;
    const put = await callJson(this.backend, 'PUT', `/${APPS_INDEX}/_doc/${encodeURIComponent(app)}`, record, 'refresh=true');
    if (put.status >= 300) throw new EsError(500, 'exception', `registering app [${app}] failed with status ${put.status}`);
    return { indexCreated };
  }

  /** Drops the app's registration, if it has one (its index is gone). */
  async forget(app: string): Promise<void> {
    const res = await callJson(this.backend, 'DELETE', `/${APPS_INDEX}/_doc/${encodeURIComponent(app)}`, undefined, 'refresh=true');
    if (res.status >= 300 && res.status !== 404) throw new EsError(500, 'exception', `unregistering app [${app}] failed with status ${res.status}`);
  }
}

/** An engine error reply re-thrown as the same ES error. */
export function relay(status: number, body: { error?: { type: string; reason: string } | string }): EsError {
  const err = body?.error;
  if (err && typeof err === 'object') return new EsError(status, err.type, err.reason);
  return new EsError(status, 'exception', typeof err === 'string' ? err : `engine answered ${status}`);
}
