import type { Page } from './chromium.js';

const WAIT_MS = 20_000;

/**
 * What a page said while the spec drove it: console errors and warnings, uncaught errors, failed
 * requests (a CORS refusal shows up here and in the console) and the gateway's error replies.
 * A wait that runs out prints all of it, so a red run says why the UI never got there.
 */
export class PageWatch {
  readonly lines: string[] = [];

  constructor(private readonly page: Page, gatewayUrl: string) {
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') this.lines.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.lines.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => this.lines.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (!r.url().startsWith(gatewayUrl) || r.status() < 400) return;
      void r.text().then(
        (body) => this.lines.push(`gateway ${r.status()} for ${r.request().method()} ${r.url()}: ${body.slice(0, 600)}`),
        () => this.lines.push(`gateway ${r.status()} for ${r.request().method()} ${r.url()}`),
      );
    });
  }

  /**
   * Waits until the texts of the elements matching `selector` are, as a set, `expected`; then
   * returns them sorted. Waiting on the rendered state, never on time.
   */
  async textsBecome(what: string, selector: string, expected: string[]): Promise<string[]> {
    const want = [...expected].sort();
    try {
      await this.page.waitForFunction(
        ([sel, wanted]) => {
          // runs in the page
          const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } }).document;
          const texts = Array.from(doc.querySelectorAll(sel), (e) => (e.textContent ?? '').trim()).sort();
          return texts.length === wanted.length && texts.every((t, i) => t === wanted[i]);
        },
        [selector, want] as const,
        { timeout: WAIT_MS, polling: 50 },
      );
    } catch (e) {
      const shown = await this.page.locator(selector).allTextContents().catch(() => []);
      throw new Error(`${what}: not shown within ${WAIT_MS} ms.\n  wanted [${want.join(' | ')}]\n  shown  [${shown.map((s) => s.trim()).sort().join(' | ')}]\n${this.report()}\n(${(e as Error).message.split('\n')[0]})`);
    }
    return want;
  }

  /**
   * Waits until the text of the first element matching `selector` matches `pattern` (a figure that
   * moves on its own, like a rate); then returns it.
   */
  async textMatches(what: string, selector: string, pattern: RegExp): Promise<string> {
    try {
      await this.page.waitForFunction(
        ([sel, source, flags]) => {
          const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
          return new RegExp(source, flags).test((doc.querySelector(sel)?.textContent ?? '').trim());
        },
        [selector, pattern.source, pattern.flags] as const,
        { timeout: WAIT_MS, polling: 50 },
      );
    } catch (e) {
      const shown = await this.page.locator(selector).allTextContents().catch(() => []);
      throw new Error(`${what}: not shown within ${WAIT_MS} ms.\n  wanted ${pattern}\n  shown  [${shown.map((s) => s.trim()).join(' | ')}]\n${this.report()}\n(${(e as Error).message.split('\n')[0]})`);
    }
    return ((await this.page.locator(selector).first().allTextContents())[0] ?? '').trim();
  }

  /** Waits for `selector` to be visible. */
  async visible(what: string, selector: string): Promise<void> {
    try {
      await this.page.locator(selector).first().waitFor({ state: 'visible', timeout: WAIT_MS });
    } catch {
      throw new Error(`${what}: [${selector}] not visible within ${WAIT_MS} ms.\n${this.report()}`);
    }
  }

  report(): string {
    return this.lines.length === 0 ? '  (the page logged nothing)' : this.lines.map((l) => `  ${l}`).join('\n');
  }
}
