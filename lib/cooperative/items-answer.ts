import { TimeSlice } from './index.js';

/** Answers shorter than this are parsed by one JSON.parse (a few milliseconds at most). */
const CUT_FROM_CHARS = 1024 * 1024;
/** The members before the array are a few numbers and booleans: a longer head is another shape. */
const MAX_HEAD_CHARS = 4096;
/** Array elements parsed by one JSON.parse call. */
const ELEMENTS_PER_PARSE = 1_000;
/** Characters scanned between two looks at the clock. */
const SCAN_TICK = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * `JSON.parse(text)` for an engine answer whose bulk is one array member — a `_bulk` answer's
 * `items` (`{"took":…,"errors":…,"items":[…]}`), tens of megabytes for a large `_bulk` — without
 * holding the event loop: the members before the array are parsed as a whole, the array's elements
 * a thousand at a time, a time slice at a time. The value is JSON.parse's. A text of another shape
 * (the array not last, anything JSON.parse would refuse) is parsed by JSON.parse in one piece, so
 * its errors are JSON.parse's.
 */
export async function parseItemsAnswer(text: string, member = 'items'): Promise<unknown> {
  if (text.length < CUT_FROM_CHARS) return JSON.parse(text);
  const key = `"${member}":[`;
  const open = text.indexOf(key);
  if (open < 0 || open > MAX_HEAD_CHARS) return JSON.parse(text);
  try {
    // a key found inside a string of the head leaves the head unparseable
    const head = JSON.parse(`${text.slice(0, open)}${key}]}`) as Record<string, unknown>;
    const elements = await arrayElements(text, open + key.length);
    if (!elements) return JSON.parse(text);
    head[member] = elements;
    return head;
  } catch {
    return JSON.parse(text); // its error, worded as JSON.parse words it
  }
}

/**
 * The elements of the array that starts at `from` (just past its `[`), if it closes the text's
 * top-level object (`]` then `}`, whitespace aside); undefined when the text is not so shaped.
 */
async function arrayElements(text: string, from: number): Promise<unknown[] | undefined> {
  const slice = new TimeSlice();
  const out: unknown[] = [];
  let depth = 0;
  let inString = false;
  let batchStart = from;
  let inBatch = 0;
  const flush = (end: number) => {
    const part = text.slice(batchStart, end).trim();
    if (part) for (const value of JSON.parse(`[${part}]`) as unknown[]) out.push(value);
    inBatch = 0;
  };
  for (let i = from; i < text.length; i++) {
    if (i % SCAN_TICK === 0) await slice.pause();
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || (c === CLOSE_BRACKET && depth > 0)) depth--;
    else if (c === COMMA && depth === 0 && ++inBatch === ELEMENTS_PER_PARSE) {
      flush(i);
      batchStart = i + 1;
    } else if (c === CLOSE_BRACKET) {
      // the array's end: only the top-level object's `}` may follow
      if (text.slice(i + 1).trim() !== '}') return undefined;
      flush(i);
      return out;
    }
  }
  return undefined;
}
