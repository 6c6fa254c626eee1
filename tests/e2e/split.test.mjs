// The release build's app in parts (scripts/build-app.sh, src/lazy.rs): the first load carries the
// group view only; the detail panels' module comes once the app has taken over, the scenario
// reader's only when the page opens a saved session or a link. A part the network does not deliver
// is said where it is missing, and nothing the user had is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, addConsumers, waitForText, screenshot } from './harness.mjs';

useServerAndBrowser();

/** The app's later parts: the split points' modules and the chunks they share. */
const LATER = /\/app-[0-9a-f]{16}\/(split|chunk)_[^/]*\.wasm$/;

/** Records, from the page's start, when the app took over (`playground-took-over`). */
async function watchTakeOver(context) {
  await context.addInitScript(() => {
    addEventListener('playground-took-over', () => (window.__tookOverAt = performance.now()), { once: true });
  });
}

/** The resources the page fetched, with when each started (ms from the page's start). */
function resources(page) {
  return page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, at: e.startTime })),
  );
}

test('the first load is the group view: the detail panels come once the app has taken over, the scenario reader only for a saved session', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await watchTakeOver(context);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  // The detail panels are there once their module is (the consumers' list is one of them).
  await page.getByRole('region', { name: 'Share and save' }).waitFor();
  const tookOverAt = await page.evaluate(() => window.__tookOverAt);
  assert.ok(tookOverAt > 0, 'the app took over');
  const fetched = await resources(page);
  const before = fetched.filter((r) => r.at < tookOverAt).map((r) => r.path);
  assert.ok(before.some((p) => /\/app-[0-9a-f]{16}\/app_bg\.wasm$/.test(p)), `the first module is in the first load: ${before}`);
  assert.deepEqual(before.filter((p) => LATER.test(p)), [], 'no later part is fetched before the app has taken over');
  const later = fetched.filter((r) => LATER.test(r.path)).map((r) => r.path.replace(/.*\//, ''));
  assert.ok(later.includes('split_panels.wasm'), `the panels' module came once the app had taken over: ${later}`);
  assert.ok(!later.includes('split_restore.wasm'), 'nothing saved, no link: the scenario reader is not fetched');
  assert.deepEqual(errors, []);
  await context.close();
});

test('when the detail panels cannot be fetched, the group view works and "Try again" brings them', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  // (openPage has waited for the takeover: the panels' module is being fetched, or is in. A new
  // page in the same context fetches it again, and that one fails.)
  await context.route('**/split_panels.wasm', (route) => route.abort());
  const second = await context.newPage();
  const seen = [];
  second.on('console', (m) => m.type() === 'error' && seen.push(m.text()));
  await second.goto(server.url);
  const missing = second.getByRole('alert').filter({ hasText: 'The detail panels' });
  await waitForText(missing, /did not load: the network failed\. The group view works without them\./);
  assert.ok(seen.length > 0, 'the browser logged why the module did not load');
  // The group view does not need them: a consumer added now is on the stage and in the group.
  await addConsumers(second, 1);
  await second.locator('.stage-consumer').first().waitFor();
  await waitForText(second.getByTestId('member-count'), /^1$/);
  await screenshot(second, 'panels-not-loaded');

  await context.unroute('**/split_panels.wasm');
  await missing.getByRole('button', { name: 'Try again' }).click();
  await second.getByRole('article').filter({ hasText: 'C1' }).waitFor();
  assert.equal(await missing.count(), 0, 'the message is gone once the panels are here');
  assert.deepEqual(errors, []);
  await context.close();
});

test('when the scenario reader cannot be fetched, the saved session is kept until the user acts', async () => {
  const key = 'rebalance-playground.session';
  const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  await addConsumers(page, 1);
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction((key) => localStorage.getItem(key)?.startsWith('rb1.'), key);
  await page.close();
  assert.deepEqual(errors, []);

  // The same browser (its storage) on a network that does not deliver the reader.
  await context.route('**/split_restore.wasm', (route) => route.abort());
  await context.addInitScript((key) => (window.__savedAtStart = localStorage.getItem(key)), key);
  const p = await context.newPage();
  await p.goto(server.url);
  const alert = p.getByRole('alert').filter({ hasText: 'Your saved session could not be opened' });
  await waitForText(alert, /Reload the page to try again; until you act here, nothing you had saved is overwritten\./);
  const saved = await p.evaluate(() => window.__savedAtStart);
  assert.match(saved, /^rb1\./);
  // The share bar (it saves the session) is here and time runs: the autosave still holds the
  // session saved before.
  await p.getByRole('region', { name: 'Share and save' }).waitFor();
  await p.getByRole('toolbar').getByRole('button', { name: 'Play' }).click();
  await p.waitForFunction(() => Number(document.querySelector('[data-testid="clock"]')?.getAttribute('data-ms')) > 2000);
  assert.equal(await p.evaluate((k) => localStorage.getItem(k), key), saved);
  await screenshot(p, 'not-restored');

  // The network is back: a reload opens the saved session (its consumer C1).
  await context.unroute('**/split_restore.wasm');
  await p.reload();
  await p.getByRole('article').filter({ hasText: 'C1' }).waitFor();
  await context.close();
});
