export interface WildcardStates {
  open: boolean;
  closed: boolean;
  hidden: boolean;
}

/** `expand_wildcards` → which index states a wildcard reaches. */
export function parseExpandWildcards(raw: string | undefined, fallback: WildcardStates): WildcardStates {
  if (raw === undefined) return fallback;
  const s: WildcardStates = { open: false, closed: false, hidden: false };
  for (const v of raw.split(',').map((x) => x.trim())) {
    if (v === 'all') Object.assign(s, { open: true, closed: true, hidden: true });
    else if (v === 'open') s.open = true;
    else if (v === 'closed') s.closed = true;
    else if (v === 'hidden') s.hidden = true;
    else if (v === 'none') continue;
    else throw new Error(`No enum constant ${v}`);
  }
  return s;
}
