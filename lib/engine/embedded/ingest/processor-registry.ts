/**
 * Every processor type the embedded engine runs, by the name pipelines use. Anything else is
 * refused when a pipeline is created; OpenSearch's own processors only in its dialect.
 */
import type { ProcessorFactory } from './processor.js';
import { drop, fail, foreach, pipeline, script, terminate } from './processors/control-processors.js';
import { convert } from './processors/convert.js';
import { csv } from './processors/csv.js';
import { date, dateIndexName } from './processors/date.js';
import { dissectProcessor } from './processors/dissect.js';
import { append, dotExpander, remove, rename, set, sort } from './processors/field-processors.js';
import { grok } from './processors/grok-processor.js';
import { json } from './processors/json.js';
import { kv } from './processors/kv.js';
import { sparseEncoding, textEmbedding } from './processors/neural-processors.js';
import { communityId, copy, fingerprint, removeByPattern } from './processors/opensearch-processors.js';
import { bytes, gsub, htmlStrip, join, lowercase, split, trim, uppercase, urldecode } from './processors/string-processors.js';
import { redact } from './processors/redact.js';
import { registeredDomainProcessor } from './processors/registered-domain.js';
import { reroute } from './processors/reroute.js';
import { uriPartsProcessor } from './processors/uri-parts.js';
import { userAgent } from './processors/user-agent.js';

export const PROCESSOR_FACTORIES: Readonly<Record<string, ProcessorFactory>> = {
  append, bytes, convert, csv, date, date_index_name: dateIndexName, dissect: dissectProcessor, dot_expander: dotExpander, drop, fail, foreach, grok, gsub, html_strip: htmlStrip, join, json, kv, lowercase, pipeline, redact, registered_domain: registeredDomainProcessor, remove, rename, reroute, script, set, sort, split, terminate, trim, uppercase, uri_parts: uriPartsProcessor, urldecode, user_agent: userAgent,
};

/**
 * OpenSearch 2's processors that Elasticsearch 8 has not (`copy`, `remove_by_pattern`) or has with
 * other options and output (`community_id`, `fingerprint`): run by an engine speaking OpenSearch's
 * dialect (API_DIALECT=opensearch), with its neural plugin's embedding processors (stored, never
 * run: no ML model here); any other refuses their names as Elasticsearch does.
 */
export const OPENSEARCH_PROCESSOR_FACTORIES: Readonly<Record<string, ProcessorFactory>> = {
  community_id: communityId, copy, fingerprint, remove_by_pattern: removeByPattern, sparse_encoding: sparseEncoding, text_embedding: textEmbedding,
};
