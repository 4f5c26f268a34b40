/**
 * `registered_domain`: a fully qualified domain name split by the Mozilla Public Suffix List's
 * ICANN section (the `tldts` package), as Elasticsearch does with Guava's registry suffixes:
 * `domain` (the name, lower-cased), `registered_domain` (the suffix and one label more),
 * `top_level_domain` (the suffix) and `subdomain` (what comes before), under `target_field` (the
 * document's root by default). A name that is itself a suffix (`co.uk`) has only `domain` and
 * `top_level_domain`; one under no known suffix, or no host name at all, has nothing: the processor
 * leaves the document alone (`ignore_missing`, true by default) or fails.
 */
import { parse } from 'tldts';
import { illegalArgument, javaType } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

export interface DomainInfo {
  domain: string;
  registered_domain?: string;
  top_level_domain: string;
  subdomain?: string;
}

/** Guava's InternetDomainName refuses a name whose last label starts with a digit (an IP address, `123`). */
const LAST_LABEL_NUMERIC = /(^|\.)\d[^.]*\.?$/;

export function registeredDomain(fqdn: string): DomainInfo | undefined {
  if (fqdn === '' || LAST_LABEL_NUMERIC.test(fqdn)) return undefined;
  const parsed = parse(fqdn, { allowPrivateDomains: false, extractHostname: false });
  if (!parsed.isIcann || parsed.publicSuffix === null || parsed.hostname === null) return undefined;
  const domain = parsed.hostname;
  if (parsed.domain === null) return { domain, top_level_domain: parsed.publicSuffix };
  const info: DomainInfo = { domain, registered_domain: parsed.domain, top_level_domain: parsed.publicSuffix };
  if (parsed.subdomain) info.subdomain = parsed.subdomain;
  return info;
}

export const registeredDomainProcessor: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const target = config.optionalString('target_field', '')!;
  const ignoreMissing = config.boolean('ignore_missing', true);
  return (doc) => {
    const value = doc.get(field, ignoreMissing);
    if (value === undefined || value === null) {
      if (ignoreMissing) return;
      throw illegalArgument(`field [${field}] is null, cannot extract domain information.`);
    }
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    const info = registeredDomain(value);
    if (info === undefined) {
      if (ignoreMissing) return;
      throw illegalArgument('unable to set domain information for document');
    }
    const prefix = target === '' ? '' : `${target}.`;
    for (const [key, v] of Object.entries(info)) doc.set(prefix + key, v);
  };
};
