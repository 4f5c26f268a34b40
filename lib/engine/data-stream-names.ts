/**
 * Elasticsearch's naming of data stream backing indices, shared by both engines: the embedded
 * engine names its backing indices with it, and the gateway (authorization, change keys), which
 * runs in front of Elasticsearch too, reads a backing index's data stream from its name.
 */

/** Where a backing index name's date comes from: the rollover's day, in UTC, as `yyyy.MM.dd`. */
function utcDay(now: number): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())}`;
}

/** Elasticsearch's backing index name: `.ds-<data-stream>-<yyyy.MM.dd>-<generation>`, generation on six digits. */
export function backingIndexName(stream: string, generation: number, now = Date.now()): string {
  return `.ds-${stream}-${utcDay(now)}-${String(generation).padStart(6, '0')}`;
}

const BACKING_NAME = /^\.ds-(.+?)-(?:\d{4}\.\d{2}\.\d{2}-)?\d{6,}$/;

/**
 * The data stream a name denotes by Elasticsearch's backing-index naming (with or without the
 * date, as 7.x named them), or undefined. A convention, not a lookup: used where only names are
 * known (the gateway's authorization and change keys, which run on Elasticsearch too).
 */
export function dataStreamOfBackingName(name: string): string | undefined {
  // asked for every written document and every authorized index: most names are not backing ones
  return name.startsWith('.ds-') ? BACKING_NAME.exec(name)?.[1] : undefined;
}
