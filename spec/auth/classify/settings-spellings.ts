import fc from 'fast-check';

/**
 * JSON texts of settings-bearing bodies that may set `index.default_pipeline` /
 * `index.final_pipeline`, in every spelling a parser accepts: flat (`"index.default_pipeline"`,
 * `"default_pipeline"`) or nested (`{"index":{"default_pipeline":…}}`), wrapped in `settings` or
 * not, keys `\u`-escaped character by character, and the same key written more than once (the
 * last one is what JSON.parse keeps). `setsPipeline` says, from the parsed value, whether one of
 * the assignments that survived the parse names a pipeline to run.
 */

type Value = string | null;
type Member = [key: string, value: Tree | Value];
interface Tree {
  members: Member[];
}

export interface Assignment {
  setting: 'default_pipeline' | 'final_pipeline';
  spelling: 'flat' | 'flat-unprefixed' | 'nested';
  value: Value;
  /** A new member even when the key is already there (a duplicate key), instead of merging into it. */
  duplicate: boolean;
  /** Per character of each key: written as a `\u` escape. */
  escapes: boolean[];
}

export interface SettingsSpelling {
  wrapped: boolean;
  assignments: Assignment[];
  text: string;
}

function pathOf(a: Assignment, wrapped: boolean): string[] {
  const leaf = a.spelling === 'nested' ? ['index', a.setting] : a.spelling === 'flat' ? [`index.${a.setting}`] : [a.setting];
  return wrapped ? ['settings', ...leaf] : leaf;
}

function insert(tree: Tree, path: string[], value: Value, duplicate: boolean): void {
  const [key, ...rest] = path;
  if (!rest.length) {
    tree.members.push([key, value]);
    return;
  }
  let child = duplicate ? undefined : tree.members.find(([k, v]) => k === key && typeof v === 'object' && v !== null);
  if (!child) {
    child = [key, { members: [] }];
    tree.members.push(child);
  }
  insert(child[1] as Tree, rest, value, duplicate);
}

function keyText(key: string, escapes: boolean[]): string {
  let out = '"';
  for (let i = 0; i < key.length; i++) {
    out += escapes[i % escapes.length] ? `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}` : key[i];
  }
  return out + '"';
}

function textOf(tree: Tree | Value, escapes: boolean[]): string {
  if (tree === null || typeof tree === 'string') return JSON.stringify(tree);
  return `{${tree.members.map(([k, v]) => `${keyText(k, escapes)}:${textOf(v, escapes)}`).join(',')}}`;
}

const assignment: fc.Arbitrary<Assignment> = fc.record({
  setting: fc.constantFrom('default_pipeline' as const, 'final_pipeline' as const),
  spelling: fc.constantFrom('flat' as const, 'flat-unprefixed' as const, 'nested' as const),
  value: fc.constantFrom<Value>('to-other', 'to-other', '_none', null),
  duplicate: fc.boolean(),
  escapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
});

export const settingsSpelling: fc.Arbitrary<SettingsSpelling> = fc
  .record({ wrapped: fc.boolean(), assignments: fc.array(assignment, { minLength: 1, maxLength: 3 }) })
  .map(({ wrapped, assignments }) => {
    const tree: Tree = { members: [] };
    for (const a of assignments) insert(tree, pathOf(a, wrapped), a.value, a.duplicate);
    // each assignment keeps its own escapes: the text is made member by member
    const text = assignments.length === 1 ? textOf(tree, assignments[0].escapes) : textOf(tree, assignments.flatMap((a) => a.escapes));
    return { wrapped, assignments, text };
  });

/** Whether the parsed body still holds an assignment naming a pipeline to run (what the engine will see). */
export function setsPipeline(spelling: SettingsSpelling): boolean {
  const parsed: unknown = JSON.parse(spelling.text);
  return spelling.assignments.some((a) => {
    let v: unknown = parsed;
    for (const key of pathOf(a, spelling.wrapped)) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' && v !== '_none';
  });
}
