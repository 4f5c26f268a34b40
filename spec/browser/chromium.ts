import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../support/servers.js';

/** The ReactiveSearch app the browser spec drives: its own package, built by `make browser-app`. */
export const BROWSER_APP = path.join(REPO_ROOT, 'spec/browser/app');
export const APP_DIST = path.join(BROWSER_APP, 'dist');
/**
 * Debian's Chromium (Playwright's own browser downloads can't be had on these machines): its old
 * headless shell where installed (package chromium-headless-shell, which `make test` installs), the
 * full browser otherwise. The shell renders with the same Blink but without the full browser's
 * compositor and GPU process: the console specs cost about a third of the CPU in it, and the
 * browser specs were the largest part of a run's CPU on this 2-core machine.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** What the browser spec needs that `make test` installs, each with how to get it. */
export function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push(`${CHROMIUM}: install Debian's Chromium as root with 'apt-get install -y chromium chromium-headless-shell' (make chromium does)`);
  if (!existsSync(path.join(BROWSER_APP, 'node_modules', 'playwright-core'))) missing.push(`playwright-core in ${BROWSER_APP}: run 'make browser-app'`);
  if (!existsSync(path.join(APP_DIST, 'index.html'))) missing.push(`the built app in ${APP_DIST}: run 'make browser-app'`);
  return missing;
}

// The few members of playwright-core's API the spec uses: it is the app's dependency, not the
// root's, so its own types are not there when the root tree compiles.
export interface Locator {
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<string[]>;
  press(key: string): Promise<void>;
  allTextContents(): Promise<string[]>;
  inputValue(): Promise<string>;
  isChecked(): Promise<boolean>;
  check(): Promise<void>;
  uncheck(): Promise<void>;
  setInputFiles(files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void>;
  filter(options: { hasText: string | RegExp }): Locator;
  first(): Locator;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
}
export interface ConsoleMessage {
  type(): string;
  text(): string;
}
export interface Request {
  url(): string;
  method(): string;
  failure(): { errorText: string } | null;
}
export interface Response {
  url(): string;
  status(): number;
  request(): Request;
  text(): Promise<string>;
}
export interface Page {
  goto(url: string): Promise<unknown>;
  locator(selector: string): Locator;
  waitForFunction<Arg>(predicate: (arg: Arg) => boolean, arg: Arg, options?: { timeout?: number; polling?: 'raf' | number }): Promise<unknown>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<Buffer>;
  /** Runs in the page (a script's text, or a function and its argument); CDP's evaluation, not subject to the page's CSP. */
  evaluate<R, Arg = undefined>(fn: string | ((arg: Arg) => R | Promise<R>), arg?: Arg): Promise<R>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  on(event: 'console', listener: (message: ConsoleMessage) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'requestfailed', listener: (request: Request) => void): void;
  on(event: 'response', listener: (response: Response) => void): void;
  close(): Promise<void>;
}
export interface Browser {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  isConnected(): boolean;
  close(): Promise<void>;
}
interface BrowserType {
  launch(options: {
    executablePath: string; args: string[]; headless?: boolean; timeout?: number;
    handleSIGINT?: boolean; handleSIGTERM?: boolean; handleSIGHUP?: boolean;
  }): Promise<Browser>;
}

/**
 * Debian's Chromium, headless, on a fresh temporary profile, driven through playwright-core: one
 * a process (a spec run's, or each of its parallel workers'), launched by the first browser spec
 * and shared by the next ones, each page in a context of its own (`newPage`), so a spec starts on
 * a browser with no cookie, storage or cache of another's. Launching costs about 2.5 s of CPU and
 * a run's browser specs would launch it about sixteen times. It is not closed by its users:
 * Playwright kills it when the process exits (its 'exit' handler), as the shared engine of
 * spec/support/backends.ts is; a browser that went away is launched again.
 */
let shared: Promise<Browser> | undefined;
export function sharedChromium(): Promise<Browser> {
  const launching = shared;
  if (launching === undefined) {
    const requireFromApp = createRequire(path.join(BROWSER_APP, 'package.json'));
    const { chromium } = requireFromApp('playwright-core') as { chromium: BrowserType };
    // SIGTERM and SIGHUP keep their default (the worker dies at once): a handler of Playwright's
    // would keep a signalled worker alive until its browser closed
    shared = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 20_000, handleSIGTERM: false, handleSIGHUP: false });
    shared.catch(() => { shared = undefined; }); // a failed launch is tried again by the next spec
    return shared;
  }
  return launching.then((browser) => {
    if (browser.isConnected()) return browser;
    if (shared === launching) shared = undefined;
    return sharedChromium();
  });
}
