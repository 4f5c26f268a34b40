import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CONSOLE_DIST } from '../../lib/console/console-assets.js';
import { BACKENDS, type BackendUnderTest } from '../support/backends.js';
import { REPO_ROOT, type TestGateway } from '../support/servers.js';
import { missingPrerequisites, sharedChromium, type Browser, type Page } from './chromium.js';
import { PageWatch } from './page-watch.js';

/** Test artifacts, kept out of git (.gitignore): what each page looked like in the last run. */
export const SCREENSHOTS = path.join(REPO_ROOT, 'spec/browser/artifacts');

/** What a console spec drives: the gateway, and a fresh page (signed out, at /_console) per test. */
export interface ConsoleUnderTest {
  backend: BackendUnderTest;
  gw: TestGateway;
  page: Page;
  watch: PageWatch;
  signIn(username: string, password: string): Promise<void>;
  /** Opens a page of the console's navigation by its label. */
  open(label: string): Promise<void>;
  /**
   * Full-page screenshots of what the page shows now, at a desktop and a phone width
   * (spec/browser/artifacts/{prefix}{name}-desktop.png, -phone.png); the viewport is put back after.
   */
  screenshots(name: string): Promise<string[]>;
}

/** The widths the console is looked at: a desktop's and a phone's. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const DEFAULT_VIEWPORT = { width: 1000, height: 700 };

/**
 * Describes `title` once per backend, in Debian's Chromium (the process's, shared) against the gateway's /_console: the
 * gateway started (with `env`) before, a new page per test, a full-page screenshot after each
 * test (spec/browser/artifacts/{prefix}…). `body` registers the tests (and its own before hooks,
 * which run after the gateway has started). Without Chromium or the built console the tests are
 * skipped — failed under CI.
 */
export function describeConsole(title: string, prefix: string, body: (t: ConsoleUnderTest) => void, env: Record<string, string> = {}): void {
  const missing = missingPrerequisites();
  if (!existsSync(path.join(CONSOLE_DIST, 'index.html'))) missing.push(`the built console in ${CONSOLE_DIST}: run 'make build'`);
  for (const backend of BACKENDS) {
    const shot = `${prefix}${backend.name.startsWith('embedded') ? '' : 'http-'}`;
    describe(`${title} (${backend.name})`, function () {
      if (missing.length > 0) {
        const reason = `needs ${missing.join('; ')}`;
        if (process.env.CI === 'true') it('has Chromium and the built console', () => expect.fail(reason));
        else it.skip(reason);
        return;
      }
      this.timeout(60_000);
      let browser: Browser;
      let stop: () => Promise<void>;
      const t = { backend } as ConsoleUnderTest;
      t.signIn = async (username, password) => {
        await t.page.locator('input[name="username"]').fill(username);
        await t.page.locator('input[name="password"]').fill(password);
        await t.page.locator('button[type="submit"]').click();
      };
      t.open = async (label) => {
        await t.page.locator('nav button').filter({ hasText: label }).click();
      };
      t.screenshots = async (name) => {
        const files: string[] = [];
        for (const [width, viewport] of Object.entries(VIEWPORTS)) {
          await t.page.setViewportSize(viewport);
          const file = path.join(SCREENSHOTS, `${shot}${name}-${width}.png`);
          await t.page.screenshot({ path: file, fullPage: true });
          console.log(`      screenshot: ${path.relative(process.cwd(), file)}`);
          files.push(file);
        }
        await t.page.setViewportSize(DEFAULT_VIEWPORT);
        return files;
      };

      before(async function () {
        this.timeout(60_000);
        ({ gateway: t.gw, stop } = await backend.start(env));
        browser = await sharedChromium();
        await mkdir(SCREENSHOTS, { recursive: true });
      });
      after(async () => {
        await stop?.();
      });
      beforeEach(async () => {
        t.page = await browser.newPage({ viewport: DEFAULT_VIEWPORT });
        t.watch = new PageWatch(t.page, t.gw.url);
        // the page itself, at the address a user types (it redirects to `/_console/`)
        await t.page.goto(`${t.gw.url}/_console`);
      });
      afterEach(async function () {
        const file = path.join(SCREENSHOTS, `${shot}${this.currentTest!.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
        await t.page.screenshot({ path: file, fullPage: true });
        console.log(`      screenshot: ${path.relative(process.cwd(), file)}`);
        await t.page.close();
      });
      body(t);
    });
  }
}
