import type { Dispatch, Interceptor } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { Classification, GatewayRequest } from '../request/index.js';
import { familyCoveredBy, familyExclusion, familyReachedFrom, isSystemIndex, prefixReachesSystemIndex, readRawRequest, SYSTEM_INDEX_FAMILIES, type SystemIndexFamily } from './classify/index.js';

/**
 * The gateway's own indices (`.gateway-*`: credentials, pipelines, apps) are reachable only
 * through its APIs, and the engine's plugins' system indices (`.opensearch-observability`) only
 * through theirs, as OpenSearch's security plugin protects a system index from every user — by no
 * REST call, stream, WebSocket frame or pipeline stage, the admin's included. One check, on what the classifier read (path, body, index-naming parameters, all
 * decoded), run by the request path for every request and by `systemIndexGuard` for every call
 * that reaches the engine through the user-facing Backend.
 *
 * A wildcard reaches a system index when its literal prefix is a dot prefix that a system
 * index's name could complete (Elasticsearch matches hidden dot-indices with dot-prefixed patterns), or when it
 * (or every index) is expanded with `expand_wildcards` including hidden indices.
 */
export function checkSystemIndices(info: Classification): void {
  if (passed.has(info)) return;
  const reached = systemIndexReached(info);
  if (reached !== undefined) {
    throw new EsError(403, 'security_exception', `action [${info.action}] is unauthorized: index [${reached}] is a system index, or may reach one, reachable only through the APIs that keep it (the gateway's, an engine plugin's)`);
  }
  if (Object.isFrozen(info) && Object.isFrozen(info.indices)) passed.add(info);
}

/**
 * Classifications that passed the check and cannot change (a remembered reading's, frozen through
 * by lib/auth/classify's ClassifiedRequests: every list the check reads is frozen too), so a
 * repeated request — a cache hit's, checked by the request path and again by the guard — is not
 * checked again. The check reads nothing but the classification.
 */
const passed = new WeakSet<Classification>();

function systemIndexReached(info: Classification): string | undefined {
  // Exclusions of every system index (`-.gateway-*,-.opensearch-observability`, `-.*`) make the
  // wildcards before them, in their own list, safe: read only when a wildcard (or every index) could reach one — never for the names
  // of nearly every request, which reach only themselves.
  let excluded: boolean | undefined;
  for (const expression of info.indices) {
    if (expression.startsWith('-')) continue; // an exclusion only ever takes indices away
    if (!expression.includes('*') && !isDateMath(expression)) {
      // one name (patternOf's literal case, without its reading)
      if (isSystemIndex(expression)) return expression;
      continue;
    }
    const { prefix, open, dateMath } = patternOf(expression);
    if (open < 0) {
      if (isSystemIndex(prefix)) return expression;
      continue;
    }
    // a dot prefix matches hidden dot-indices without expanding them; so may date math whose
    // static text is not enough to say where its name begins (`<{now{'.gateway-'}}*>`)
    if (prefix.charCodeAt(0) === 46 /* . */ || (dateMath && prefix === '')) {
      if (prefixReachesSystemIndex(prefix) && !(excluded ??= systemIndicesExcluded(info))) return expression;
      continue;
    }
    if (expression.includes('*') && expandsHiddenToData(info) && !(excluded ??= systemIndicesExcluded(info))) return expression;
  }
  if (info.allIndices && expandsHiddenToData(info) && !(excluded ?? systemIndicesExcluded(info))) return '_all';
  return undefined;
}

/**
 * With hidden indices expanded, a wildcard or every index reaches system indices too: fine for
 * reading index metadata (`_cat/indices?expand_wildcards=all`), not for documents or changes.
 */
function expandsHiddenToData(info: Classification): boolean {
  return info.expandsHidden && !(info.operation === 'read' && (info.category === 'indices' || info.category === 'cluster'));
}

/** The exclusions that keep a list's wildcards off every system index. */
const SYSTEM_EXCLUSIONS = SYSTEM_INDEX_FAMILIES.map(familyExclusion).join(',');

/**
 * Is the expression one of the exclusions `withoutSystemIndices` writes (`-.gateway-*`,
 * `-.opensearch-observability`)? A refusal names what the caller wrote, which they may not be.
 */
export function isSystemExclusion(expression: string): boolean {
  return SYSTEM_INDEX_FAMILIES.some((family) => familyExclusion(family) === expression);
}

/**
 * A request whose wildcards (or every index) reach system indices — by expanding hidden indices
 * (`GET /_field_caps?expand_wildcards=all`, `POST /*\/_cache/clear?expand_wildcards=all`) or by a
 * dot alone (`GET /_cat/indices/.*`, `GET /.*\/_search`) — and whose path alone names its
 * indices: the path's segments with the system indices excluded (`.*,-.gateway-*,-.opensearch-observability`),
 * the request its caller could have written, which `checkSystemIndices` accepts — as Elasticsearch
 * resolves a wildcard to the indices the caller may see, its restricted (system) indices left out.
 * Undefined for any other request — one that names a system index, or aims at one (`.g*`,
 * `<.gateway-c*>` without hidden indices expanded), names indices elsewhere than in its path
 * (a body, a parameter), or whose path holds one name rather than a list (`GET /.*\/_doc/1`; the
 * default index of a body's items, `/.*\/_mget`, `/.*\/_bulk`: where the rewritten list would be
 * read as one invalid name and echoed), is refused as before.
 */
export function withoutSystemIndices(req: GatewayRequest): readonly string[] | undefined {
  const info = req.info;
  const slot = info.slot;
  // a slot of one name (a document's index) is no list: `.*` there is refused, not rewritten
  if (!slot || slot.single || slot.holds === 'aliases' || info.sources.some((s) => s.from !== 'path')) return undefined;
  const reached = systemIndexReached(info);
  if (reached === undefined || !narrowable(info, reached)) return undefined;
  const segments = [...req.segments];
  if (slot.insert) segments.splice(slot.segment, 0, `*,${SYSTEM_EXCLUSIONS}`);
  else {
    // narrowed once: a list its exclusions did not make safe (a path of two lists) is refused
    if (segments[slot.segment].endsWith(`,${SYSTEM_EXCLUSIONS}`)) return undefined;
    // `_all` in a list is a name, not every index: it is written as the wildcard it stands for
    const list = segments[slot.segment].split(',').map((e) => (e === '_all' ? '*' : e));
    segments[slot.segment] = [...list, SYSTEM_EXCLUSIONS].join(',');
  }
  return segments;
}

/**
 * May the request's first expression reaching a system index be narrowed? Every index (`_all`) and
 * any other wildcard or date math only when they reach system indices by expanding hidden ones; a
 * dot-prefixed wildcard whose literal start is the dot alone (`.*`, `.*-logs`), which stands for the
 * caller's dot-prefixed indices, always. A system index's name, or a wildcard whose literal start
 * begins one (`.g*`, `.opensearch*`, aiming at it), is refused.
 */
function narrowable(info: Classification, reached: string): boolean {
  if (reached === '_all') return true;
  if (!info.indices.includes(reached) || isSystemIndex(reached)) return false;
  if (reached.startsWith('.')) return patternOf(reached).prefix === '.';
  return info.expandsHidden;
}

/**
 * Does an exclusion of each system index come after each wildcard (or `_all`) of the request that
 * could reach it? An exclusion takes indices away only from what comes before it in its own list
 * (Elasticsearch's `IndexNameExpressionResolver`; the engines alike): `-.gateway-*,.gateway-*` or
 * `*,-.gateway-*,*` name the system indices again, `*,-.gateway-*` still reaches
 * `.opensearch-observability`, and a path's exclusion takes nothing from the lists of a body
 * (`_msearch` headers, `_mget`, `_reindex`) or an `index=` parameter. The classifier's expressions
 * are de-duplicated across lists, so the order is read from the path's own list (`pathLists`), and
 * a request naming indices anywhere else is never made safe by an exclusion.
 */
function systemIndicesExcluded(info: Classification): boolean {
  if (info.sources.some((s) => s.from !== 'path')) return false;
  // the path's one list (a second list in a path is another list, as a body's is)
  const list = info.pathLists?.length === 1 ? info.pathLists[0] : undefined;
  const coversAny = (e: string) => e.startsWith('-') && SYSTEM_INDEX_FAMILIES.some((family) => familyCoveredBy(family, e.slice(1)));
  if (!list || !list.some(coversAny) || !info.indices.every((e) => list.includes(e))) return false;
  return SYSTEM_INDEX_FAMILIES.every((family) => {
    let lastCover = -1;
    let lastReach = -1;
    list.forEach((e, i) => {
      if (e.startsWith('-')) {
        if (familyCoveredBy(family, e.slice(1))) lastCover = i;
      } else if (e === '_all' || mayReach(e, family)) lastReach = i;
    });
    return lastReach < 0 || lastCover > lastReach;
  });
}

/** Could the expression (a wildcard, date math) name an index of the family (`*`, `*p`, `.g*`, `<.gateway-c*>`, `<.gateway{now{'-'}}x>`)? */
function mayReach(expression: string, family: SystemIndexFamily): boolean {
  const { prefix, open } = patternOf(expression);
  return open >= 0 && familyReachedFrom(family, prefix);
}

/**
 * An index expression's literal start: the text before its first wildcard, or — date math
 * (`<logs-{now/d}>`, which the engine resolves, wildcards inside included) — before its first
 * placeholder, wildcard or escape, whose text (a date format's quoted literals) may be anything.
 * `open` is where that literal text ends (-1: the expression is that one name).
 */
function patternOf(expression: string): { prefix: string; open: number; dateMath: boolean } {
  const dateMath = isDateMath(expression);
  const body = dateMath ? expression.slice(1, -1) : expression;
  const open = dateMath ? body.search(/[*{}\\]/) : body.indexOf('*');
  return { prefix: open < 0 ? body : body.slice(0, open), open, dateMath };
}

const isDateMath = (expression: string): boolean => expression.startsWith('<') && expression.endsWith('>');

/**
 * The guard as a Backend interceptor: a request is checked on its value (`EngineRequest.request`,
 * which the Backend's edge gives every request); one without (a Backend composed without that
 * edge) is read here first, by the same builder — the guard never lets an unread request through.
 */
export function systemIndexGuard(): Interceptor {
  return (next: Dispatch): Dispatch => (req) => {
    try {
      const body = typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined;
      checkSystemIndices((req.request ?? readRawRequest(req.method, req.path, req.querystring ?? '', body)).info);
    } catch (err) {
      return Promise.reject(err);
    }
    return next(req);
  };
}
