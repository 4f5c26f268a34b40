/** Every processor type the embedded engine runs, by the name pipelines use. Anything else is refused when a pipeline is created. */
import type { ProcessorFactory } from './processor.js';
import { drop, fail, foreach, pipeline, script } from './processors/control-processors.js';
import { convert } from './processors/convert.js';
import { date } from './processors/date.js';
import { dissectProcessor } from './processors/dissect.js';
import { append, remove, rename, set } from './processors/field-processors.js';
import { grok } from './processors/grok-processor.js';
import { json } from './processors/json.js';
import { kv } from './processors/kv.js';
import { gsub, join, lowercase, split, trim, uppercase } from './processors/string-processors.js';

export const PROCESSOR_FACTORIES: Readonly<Record<string, ProcessorFactory>> = {
  append, convert, date, dissect: dissectProcessor, drop, fail, foreach, grok, gsub, join, json, kv, lowercase, pipeline, remove, rename, script, set, split, trim, uppercase,
};
