import { readFileSync } from 'node:fs';

/** A V8 CPU profile (`--cpu-prof`), as the bench tools read it. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A profile read from its file, its nodes by id, and the project's frames on a sample's stack. */
export class CpuProfile {
  readonly profile: Profile;
  readonly byId: Map<number, ProfileNode>;
  private readonly parent = new Map<number, number>();

  constructor(file: string) {
    this.profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    this.byId = new Map(this.profile.nodes.map((n) => [n.id, n]));
    for (const n of this.profile.nodes) for (const c of n.children ?? []) this.parent.set(c, n.id);
  }

  /** `function file:line`, the file relative to dist/ (or the package under node_modules, as `~package/…`). */
  label(n: ProfileNode): string {
    const url = n.callFrame.url.replace(/^.*\/dist\//, '').replace(/^.*\/node_modules\//, '~').replace(/^file:\/\//, '');
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  }

  /** The project's own frames (dist/lib/) on the stack of sample node `id`, each once, innermost first. */
  projectFrames(id: number): string[] {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = this.parent.get(at)) {
      const n = this.byId.get(at)!;
      if (n.callFrame.url.includes('/dist/lib/')) seen.add(this.label(n));
    }
    return [...seen];
  }
}
