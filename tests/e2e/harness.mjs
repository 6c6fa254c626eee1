// Shared pieces of the end-to-end tests: a static server for dist/ on loopback, and Debian's
// Chromium launched headless through playwright-core (which never downloads a browser).
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// E2E_DIST lets several builds be tested side by side (e.g. `trunk build --dist /tmp/dist-a`).
export const DIST = process.env.E2E_DIST ? resolve(process.env.E2E_DIST) : join(ROOT, 'dist');
export const SHOTS = join(ROOT, 'target', 'e2e');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Serves dist/ on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serveDist() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(DIST, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Launches Debian's Chromium headless, with the flags this closed network needs. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens a page that records every console error and uncaught exception into `errors`, and waits
 * until the app has taken over the prerendered first view (whose controls only keep what they are
 * given, for the app to replay).
 */
// `serviceWorkers: 'block'` for a test that routes requests: what the service worker (static/sw.js)
// serves from its cache never reaches Playwright's routes.
export async function openPage(browser, url, { locale = 'en-US', viewport, hasTouch = false, serviceWorkers = 'allow' } = {}) {
  const context = await browser.newContext({ locale, viewport: viewport ?? { width: 1280, height: 800 }, hasTouch, serviceWorkers });
  const page = await context.newPage();
  // E2E_CPU_THROTTLE=N runs the page N times slower (Chromium's CPU throttling): the suite run
  // that way shows what a busy machine does to a test that should not depend on speed.
  const throttle = Number(process.env.E2E_CPU_THROTTLE ?? 1);
  if (throttle > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()}`));
  await page.goto(url);
  await tookOver(page);
  return { context, page, errors };
}

/** Waits until the app has replaced the prerendered first view with its own (src/prerender.rs). */
export async function tookOver(page, timeout = 30_000) {
  await page.waitForFunction(() => !document.getElementById('prerender') && document.querySelector('.app'), null, {
    timeout,
  });
}

export async function screenshot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  // From the top, so that the sticky toolbar is drawn where it belongs.
  await page.evaluate(() => window.scrollTo(0, 0));
  // Panels, consumer cards and log lines out of sight are not painted (`content-visibility: auto`)
  // until they are scrolled to; a picture of the whole page shows them as a reader scrolling down
  // would see them.
  const all = await page.addStyleTag({
    content: '.panel, .consumer-list-item, .log-line { content-visibility: visible !important; }',
  });
  await page.screenshot({ path, fullPage: true });
  await all.evaluate((el) => el.remove());
  return path;
}

/** Sets the speed slider (a step from -10, 0.1×, to 10, 10×) as a user dragging it would. */
export async function setSpeed(page, step) {
  await page.getByRole('slider', { name: /Speed|速度/ }).fill(String(step));
}

/** Waits until `locator`'s text matches `pattern` (a visible condition, never a fixed sleep). */
export async function waitForText(locator, pattern, timeout = 30_000) {
  await locator.filter({ hasText: pattern }).first().waitFor({ timeout });
  return locator.first().textContent();
}

/** Adds `n` consumers with the form's default settings through its button. */
export async function addConsumers(page, n) {
  const add = page.getByRole('button', { name: /Add consumer|添加消费者/ });
  for (let i = 0; i < n; i++) await add.click();
}

/**
 * Waits until the group has settled with `members` members: the coordinator counts them, the group
 * is Stable and every consumer card says "stable" (its SyncGroup answer has arrived). Waiting for
 * "Stable" alone races: at 10× on a busy machine the group can be Stable with the first members
 * before a later one's JoinGroup arrives, and a follower's SyncGroup answer lands after the state.
 */
export async function settledGroup(page, members, timeout = 90_000) {
  // (90 s: a rebalance may wait up to rebalance.timeout.ms, 300 s of virtual time, for a slow
  // member; at 10× on a busy machine that is more than 30 s.)
  const settled = (n) => {
    const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim();
    const cards = [...document.querySelectorAll('[data-testid="client-state"]')];
    return (
      text('member-count') === String(n) &&
      /^(Stable|稳定（Stable）)$/.test(text('group-state')) &&
      cards.length >= n &&
      cards.every((c) => ['stable', 'killed', 'closed'].includes(c.getAttribute('data-state'))) &&
      cards.filter((c) => c.getAttribute('data-state') === 'stable').length === n
    );
  };
  try {
    await page.waitForFunction(settled, members, { timeout });
  } catch (e) {
    // What the page showed, and the session's link (it replays the run exactly).
    const seen = await page.evaluate(() => ({
      state: document.querySelector('[data-testid="group-state"]')?.textContent,
      members: document.querySelector('[data-testid="member-count"]')?.textContent,
      cards: [...document.querySelectorAll('[data-testid="client-state"]')].map((c) => c.getAttribute('data-state')),
      clock: document.querySelector('[data-testid="clock"]')?.getAttribute('data-ms'),
      link: location.hash,
    }));
    await screenshot(page, 'not-settled');
    throw new Error(`the group did not settle with ${members} members: ${JSON.stringify(seen)}`, { cause: e });
  }
}

/** The consumer named as leader in the group panel (`C1` from `C1 (C1-1)`). */
export async function leaderName(page) {
  const text = (await page.getByTestId('leader').textContent()).replace('♛', '').trim();
  return text.split(' ')[0];
}

/** The running test file's server (of dist/) and browser, set by `useServerAndBrowser()`'s hooks. */
export let server;
export let browser;

/** Serves dist/ and launches Chromium before a test file's tests; closes both after them. */
export function useServerAndBrowser() {
  before(async () => {
    server = await serveDist();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** What the user sees of the session at the shown time: clock, group, consumer cards, partitions, log. */
export async function shownSession(page) {
  return {
    clock: await page.getByTestId('clock').getAttribute('data-ms'),
    state: await page.getByTestId('group-state').textContent(),
    generation: await page.getByTestId('generation').textContent(),
    leader: await leaderName(page),
    members: await page.getByTestId('member-count').textContent(),
    cards: await page.getByRole('article').evaluateAll((els) => els.map((e) => e.textContent)),
    partitions: await page
      .getByRole('list', { name: 'test_topic' })
      .getByRole('listitem')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
    log: await page.locator('.log-line').evaluateAll((els) => els.slice(0, 12).map((e) => e.textContent)),
  };
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** `n` times in [0, end): the same pseudo-random ones on every run (a 32-bit LCG). */
export function* seededTimes(end, n) {
  let x = 20261201;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    yield Math.floor((x / 2 ** 32) * end);
  }
}
