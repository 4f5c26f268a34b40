import { callJson, type Backend } from '../engine/index.js';

/**
 * The gateway's convention on every engine: a string field gets a `raw` keyword sub-field, so
 * `{field}.raw` sorts and aggregates. The embedded engine's dynamic mapping does it itself; on
 * Elasticsearch/OpenSearch the gateway installs a legacy index template (`_template`, order 0)
 * carrying a dynamic template. Legacy, not composable: Elasticsearch applies a legacy template only
 * where no composable template matches, and refuses two overlapping composable templates of one
 * priority — a composable catch-all would make every user template at the default priority fail.
 * A composable one a gateway of an earlier version installed is removed.
 */
export const RAW_TEMPLATE_NAME = 'gateway-raw-subfields';

export const RAW_DYNAMIC_TEMPLATE = {
  gateway_strings: {
    match_mapping_type: 'string',
    mapping: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 }, raw: { type: 'keyword' } } },
  },
};

export async function installRawSubfieldTemplate(backend: Backend, log: (line: string) => void): Promise<void> {
  if (backend.kind !== 'http') return;
  try {
    const res = await callJson(backend, 'PUT', `/_template/${RAW_TEMPLATE_NAME}`, {
      index_patterns: ['*'],
      order: 0,
      mappings: { dynamic_templates: [RAW_DYNAMIC_TEMPLATE] },
    });
    if (res.status >= 300) log(`the raw sub-field template was not installed: engine answered ${res.status}`);
    const old = await callJson(backend, 'DELETE', `/_index_template/${RAW_TEMPLATE_NAME}`);
    if (old.status >= 300 && old.status !== 404) log(`an earlier version's raw sub-field template was not removed: engine answered ${old.status}`);
  } catch (err) {
    log(`the raw sub-field template was not installed: ${(err as Error).message}`);
  }
}
