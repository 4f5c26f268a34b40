import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { call } from '../support/http.js';
import { ADMIN } from '../support/servers.js';
import type { Page } from './chromium.js';
import { describeConsole } from './console-fixture.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 360, height: 740 };

/** axe-core's WCAG 2.1 A and AA rules on the page as it is: each violation as `rule: elements`. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const doc = (globalThis as unknown as { document: unknown }).document;
    const result = await axe.run(doc, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** How far the page is wider than the window (0: nothing to scroll sideways), and the elements that stick out. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    type El = { tagName: string; className: string; parentElement: El | null; getAttribute(n: string): string | null; getBoundingClientRect(): { right: number } };
    const { document, innerWidth } = globalThis as unknown as { document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<El> }; innerWidth: number };
    const wider = Math.max(0, document.documentElement.scrollWidth - innerWidth);
    const out = Array.from(document.querySelectorAll('body *'))
      // the outermost ones: inside a parent that fits (a table scrolled in its region is not one)
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && (!e.parentElement || e.parentElement.getBoundingClientRect().right <= innerWidth + 1))
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}${e.getAttribute('name') ? `[name=${e.getAttribute('name')}]` : ''}${e.className ? `.${e.className}` : ''}`);
    return wider ? `${wider}px too wide (${out.join(', ')})` : '';
  });

/**
 * The console is accessible: every page passes axe-core's WCAG 2.1 A/AA rules (labels, names,
 * contrast, structure) at a desktop and at a phone width, needs no sideways scrolling on a phone,
 * and is used with the keyboard alone.
 */
describeConsole('the console is accessible', 'a11y-', (t) => {
  before(async () => {
    await call(t.gw.url, 'PUT', '/books', { body: { mappings: { properties: { title: { type: 'text' }, genre: { type: 'keyword' }, year: { type: 'integer' } } } } });
    await call(t.gw.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune', genre: 'sf', year: 1965 } });
    await call(t.gw.url, 'POST', '/books/_declarative', { body: { query: [{ id: 's', dataField: ['title'], value: 'dune' }], settings: { recordAnalytics: true } } });
  });

  /** Every page of the navigation, each once its heading is shown: `[label, violations, overflow]`. */
  const everyPage = async () => {
    const labels = (await t.page.locator('nav button').allTextContents()).map((l) => l.trim());
    expect(labels.length).to.be.at.least(10);
    const seen: Array<[string, string[], string]> = [];
    for (const label of labels) {
      await t.open(label);
      await t.watch.visible(`the ${label} page`, 'main h2');
      seen.push([label, await violations(t.page), await overflow(t.page)]);
    }
    return seen;
  };

  it('the sign-in page and every page of the admin pass WCAG 2.1 A/AA checks at a desktop width', async () => {
    expect(await violations(t.page)).to.deep.equal([]);
    // the check does find faults: an input without a label, added to the page, is one
    await t.page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { createElement(t: string): unknown; querySelector(s: string): { appendChild(e: unknown): void } } }).document;
      doc.querySelector('form').appendChild(doc.createElement('input'));
    });
    expect((await violations(t.page)).map((v) => v.split(':')[0])).to.include('label');
    await t.page.goto(`${t.gw.url}/_console/`);
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.visible('signed in', '[data-testid="signed-in-as"]');
    const failing = (await everyPage()).filter(([, v]) => v.length > 0).map(([label, v]) => `${label}: ${v.join('; ')}`);
    expect(failing).to.deep.equal([]);
  });

  it('at a phone width every page passes the same checks and none needs sideways scrolling', async () => {
    await t.page.setViewportSize(PHONE);
    expect(await overflow(t.page)).to.equal('');
    await t.signIn(ADMIN.user, ADMIN.password);
    await t.watch.visible('signed in', '[data-testid="signed-in-as"]');
    const pages = await everyPage();
    expect(pages.filter(([, v]) => v.length > 0).map(([label, v]) => `${label}: ${v.join('; ')}`)).to.deep.equal([]);
    expect(pages.filter(([, , wider]) => wider).map(([label, , wider]) => `${label}: ${wider}`)).to.deep.equal([]);
  });

  it('is used with the keyboard alone: sign in, move between pages, act on one', async () => {
    await t.page.keyboard.press('Tab'); // the username field is the first thing focused
    await t.page.keyboard.type(ADMIN.user);
    await t.page.keyboard.press('Tab');
    await t.page.keyboard.type(ADMIN.password);
    await t.page.keyboard.press('Enter');
    await t.watch.visible('signed in', '[data-testid="signed-in-as"]');
    // Tab to the navigation's "Data" button and press it
    for (let i = 0; i < 20; i++) {
      await t.page.keyboard.press('Tab');
      const focused = await t.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent ?? '');
      if (focused.trim() === 'Data') break;
    }
    await t.page.keyboard.press('Enter');
    await t.watch.textsBecome('the Data page', 'main h2', ['Data']);
  });
});
