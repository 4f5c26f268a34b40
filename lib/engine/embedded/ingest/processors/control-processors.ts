/** Processors that steer a pipeline: script, fail, drop, terminate, pipeline, foreach (the reference pages of the same names). */
import { EsError } from '../../../../errors/index.js';
import { illegalArgument, isMap, javaType } from '../ingest-document.js';
import { DROPPED, type ProcessorFactory } from '../processor.js';
import { compileScriptProcessor } from '../scripts.js';
import { compileStringTemplate } from '../templates.js';

export const script: ProcessorFactory = (config, env) => compileScriptProcessor(config, env.storedScripts);

export const fail: ProcessorFactory = (config) => {
  const message = compileStringTemplate(config.requiredString('message'), config, 'message');
  return (doc) => {
    throw new EsError(500, 'fail_processor_exception', message(doc));
  };
};

export const drop: ProcessorFactory = () => () => DROPPED;

/** terminate: the pipeline it runs in runs no further processor; a calling pipeline, and the final pipeline, go on. */
export const terminate: ProcessorFactory = () => (doc) => {
  doc.terminated = true;
};

export const pipeline: ProcessorFactory = (config) => {
  const name = compileStringTemplate(config.requiredString('name'), config, 'name');
  const ignoreMissing = config.boolean('ignore_missing_pipeline', false);
  return (doc, ctx) => ctx.runPipeline(name(doc), doc, ignoreMissing);
};

/**
 * foreach: the inner processor runs once per element of a list (or entry of a map), which it
 * sees as `_ingest._value` (and `_ingest._key`); what it leaves there replaces the element.
 */
export const foreach: ProcessorFactory = (config, env) => {
  const field = config.requiredString('field');
  const ignoreMissing = config.boolean('ignore_missing', false);
  const raw = config.take('processor');
  if (raw === undefined) throw config.error('processor', 'required property is missing');
  const inner = env.compileProcessor(raw, 'processor');
  return (doc, ctx) => {
    const value = doc.get(field, ignoreMissing);
    if (value === undefined || value === null) {
      if (ignoreMissing) return;
      throw illegalArgument(`field [${field}] is null, cannot loop over its elements.`);
    }
    const previous = { value: doc.ingest._value, key: doc.ingest._key };
    try {
      if (Array.isArray(value)) {
        // the elements as they are now: an inner processor that appends to this list cannot make the loop endless
        const elements = value.slice();
        const out: unknown[] = [];
        for (const element of elements) {
          doc.ingest._value = element;
          if (ctx.runProcessors([inner], doc) === DROPPED) return DROPPED;
          out.push(doc.ingest._value);
        }
        doc.set(field, out);
      } else if (isMap(value)) {
        const out: Record<string, unknown> = {};
        for (const [k, element] of Object.entries(value)) {
          doc.ingest._key = k;
          doc.ingest._value = element;
          if (ctx.runProcessors([inner], doc) === DROPPED) return DROPPED;
          out[String(doc.ingest._key)] = doc.ingest._value;
        }
        doc.set(field, out);
      } else {
        throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to a list or map`);
      }
    } finally {
      if (previous.value === undefined) delete doc.ingest._value;
      else doc.ingest._value = previous.value;
      if (previous.key === undefined) delete doc.ingest._key;
      else doc.ingest._key = previous.key;
    }
  };
};
