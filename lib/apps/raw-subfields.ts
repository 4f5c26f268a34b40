import { callJson, type Backend } from '../engine/index.js';

/**
 * The gateway's convention on every engine: a string field gets a `raw` keyword sub-field, so
 * `{field}.raw` sorts and aggregates. The embedded engine's dynamic mapping does it itself; on
 * Elasticsearch/OpenSearch the gateway installs a lowest-priority composable index template
 * carrying a dynamic template (a user template or mapping with a higher priority wins).
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
    const res = await callJson(backend, 'PUT', `/_index_template/${RAW_TEMPLATE_NAME}`, {
      index_patterns: ['*'],
      priority: 0,
      template: { mappings: { dynamic_templates: [RAW_DYNAMIC_TEMPLATE] } },
      _meta: { description: 'search-gateway: string fields get a raw keyword sub-field' },
    });
    if (res.status >= 300) log(`the raw sub-field template was not installed: engine answered ${res.status}`);
  } catch (err) {
    log(`the raw sub-field template was not installed: ${(err as Error).message}`);
  }
}
