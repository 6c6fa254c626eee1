// Sharing, import and autosave as a user meets them: copy the link and open it elsewhere, import
// broken files, reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  server,
  browser,
  useServerAndBrowser,
  shownSession,
  openPage,
  screenshot,
  addConsumers,
  setSpeed,
  waitForText,
  settledGroup,
  tookOver,
} from './harness.mjs';

useServerAndBrowser();

/** Two consumers reach Stable at 10×, then the user pauses. */
async function stablePausedSession(page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 2);
  await settledGroup(page, 2);
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Play' }).waitFor();
}

test('a copied share link opens the same run, paused at the same time, in a new page', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await stablePausedSession(page);
  // Kill a consumer, so that the link must carry an action after the start.
  await page.getByRole('toolbar').getByRole('button', { name: 'Play' }).click();
  await page.getByRole('article').filter({ hasText: 'C2' }).getByRole('button', { name: 'Kill' }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  const before = await shownSession(page);

  const share = page.getByRole('region', { name: 'Share and save' });
  await share.getByRole('button', { name: 'Copy link' }).click();
  await share.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
  const link = await share.getByRole('textbox', { name: 'Share link' }).inputValue();
  assert.match(link, /#s=rb1\.[A-Za-z0-9_-]+$/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  assert.ok(page.url().endsWith(link.slice(link.indexOf('#'))), 'the page URL carries the link');
  await screenshot(page, 'share-original');

  const other = await openPage(browser, link);
  await other.page.getByTestId('clock').and(other.page.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(other.page), before);
  await other.page.getByRole('toolbar').getByRole('button', { name: 'Play' }).waitFor();
  await screenshot(other.page, 'share-opened');
  assert.deepEqual(other.errors, []);
  await other.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('broken or hostile files are refused with their problem as text; the session stays', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stablePausedSession(page);
  const before = await shownSession(page);
  const share = page.getByRole('region', { name: 'Share and save' });
  const input = share.getByLabel('Import JSON');
  const alert = share.getByRole('alert');

  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ "version": 1, ') });
  await waitForText(alert, /This file cannot be imported: .*invalid JSON/);
  assert.deepEqual(await shownSession(page), before);

  await input.setInputFiles({
    name: 'v9.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ "version": 9, "end_ms": 1000 }'),
  });
  await waitForText(alert, /unsupported version 9/);

  await input.setInputFiles({
    name: 'long.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ "version": 1, "end_ms": 99999999999 }'),
  });
  await waitForText(alert, /end_ms\b.*99999999999 ms/);

  const hostile = JSON.stringify({
    version: 1,
    end_ms: 1000,
    topics: [{ name: 't', partitions: 1 }],
    client_defaults: { subscription: { topics: ['t'] } },
    consumers: [{ name: '<img src=x onerror="window.pwned=1">' }],
  });
  await input.setInputFiles({ name: 'hostile.json', mimeType: 'application/json', buffer: Buffer.from(hostile) });
  await waitForText(alert, /consumers\[0\]\.name: the name "<img src=x onerror=/);
  assert.equal(await page.locator('img[src=x]').count(), 0, 'the markup is text, not an element');
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  await input.setInputFiles({
    name: 'huge.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(10 * 1024 * 1024, 0x20),
  });
  await waitForText(alert, /the file is 10\.0 MB/);
  assert.match(await alert.textContent(), /Your session was not changed\./);
  assert.deepEqual(await shownSession(page), before);
  await screenshot(page, 'share-import-error');

  // A good file (the session's own export) opens.
  const download = page.waitForEvent('download');
  await share.getByRole('button', { name: 'Export JSON' }).click();
  const file = await (await download).path();
  await input.setInputFiles(file);
  // An import opens at t=0, paused, with its name shown; its end is the session exported.
  await share.getByRole('status').filter({ hasText: /^Opened Playground session at 0\.0 s/ }).waitFor();
  await page.getByTestId('imported').getByText('Playground session').waitFor();
  await page.getByRole('slider', { name: 'Timeline' }).fill(String(before.clock));
  await page.getByTestId('clock').and(page.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(page), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a reload restores the session where it was; a link pasted into the same tab opens; a damaged one is reported', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stablePausedSession(page);
  const before = await shownSession(page);
  await page.reload();
  await tookOver(page);
  await page.getByTestId('clock').and(page.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(page), before);
  await page.getByRole('toolbar').getByRole('button', { name: 'Play' }).waitFor();
  // The URL may still hold the link published before the reload (the save as the page left
  // went to storage only); the page's own save, a moment after it opens, puts the shown one in.
  const field = page.getByRole('textbox', { name: 'Share link' });
  const shown = await field.inputValue();
  await page.waitForFunction((link) => location.href === link, shown);
  const linkA = page.url();

  // Move on, so that the session differs, and wait until the URL holds the new one.
  const toolbar = page.getByRole('toolbar');
  for (let i = 0; i < 3; i++) await toolbar.getByRole('button', { name: 'Step' }).click();
  await page.getByTestId('clock').and(page.locator(`[data-ms="${before.clock}"]`)).waitFor({ state: 'detached' });
  await page.waitForFunction((a) => location.href !== a, linkA);
  assert.notDeepEqual(await shownSession(page), before);
  const stepped = await page.evaluate(() => localStorage.getItem('rebalance-playground.session'));

  // The earlier link pasted into this tab's address bar: only the fragment changes (no page
  // load), and the page opens it.
  await page.goto(linkA);
  await tookOver(page);
  const share = page.getByRole('region', { name: 'Share and save' });
  await share.getByRole('status').filter({ hasText: /^Opened Playground session at/ }).waitFor();
  await page.getByTestId('clock').and(page.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(page), before);
  // (Its save, a moment later, is what a new tab comes back to.)
  await page.waitForFunction((s) => localStorage.getItem('rebalance-playground.session') !== s, stepped);

  // A damaged link pasted the same way: the message (at the top of the page since issue #13), and
  // the session stays.
  await page.goto(`${server.url}#s=rb1.AAAA-damaged`);
  await tookOver(page);
  const alert = page.getByRole('alert');
  await waitForText(alert, /This link cannot be opened: .*damaged/);
  assert.deepEqual(await shownSession(page), before);

  // Opened in a new tab, the damaged link is reported too, and the autosaved session comes back.
  const other = await context.newPage();
  const otherErrors = [];
  other.on('pageerror', (e) => otherErrors.push(e.message));
  await other.goto(`${server.url}#s=rb1.AAAA-damaged`);
  const otherAlert = other.getByRole('alert');
  await waitForText(otherAlert, /This link cannot be opened: .*damaged/);
  await other.getByTestId('clock').and(other.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(other), before);
  await screenshot(other, 'share-bad-link');
  assert.deepEqual(errors, []);
  assert.deepEqual(otherErrors, []);
  await context.close();
});

test('a reload right after a change keeps the change (the save waits a moment, but not past the page)', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stablePausedSession(page);
  const c2 = () => page.getByRole('article').filter({ hasText: 'C2' });
  const alive = await c2().textContent();
  await c2().getByRole('button', { name: 'Kill' }).click();
  const killed = await c2().textContent();
  assert.notEqual(killed, alive);
  const before = await shownSession(page);
  // No wait: the reload comes before the delayed save would run.
  await page.reload();
  await tookOver(page);
  await page.getByTestId('clock').and(page.locator(`[data-ms="${before.clock}"]`)).waitFor();
  assert.deepEqual(await shownSession(page), before);
  assert.equal(await c2().textContent(), killed);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged link opens with a translated alert at the top; the address bar and the autosave keep what they had', async () => {
  const { context, page, errors } = await openPage(browser, `${server.url}#s=rb1.AAAA-damaged`, { locale: 'zh-CN' });
  const alert = page.getByRole('alert').filter({ hasText: '无法打开这个链接' });
  await alert.waitFor();
  const text = await alert.textContent();
  assert.match(text, /链接已损坏/);
  assert.doesNotMatch(text, /the link|damaged|too short/, 'no English left');
  // At the top: above the stage.
  const alertBox = await alert.boundingBox();
  const stageBox = await page.locator('.stage').boundingBox();
  assert.ok(alertBox.y + alertBox.height <= stageBox.y, `alert at ${alertBox.y}, stage at ${stageBox.y}`);
  // Time runs (a save would follow within a second), but the damaged link stays in the address bar
  // and nothing is autosaved over what was there.
  await page.getByRole('toolbar').getByRole('button', { name: '播放' }).click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=clock]').getAttribute('data-ms')) > 2500);
  assert.equal(new URL(page.url()).hash, '#s=rb1.AAAA-damaged');
  assert.equal(await page.evaluate(() => localStorage.getItem('rebalance-playground.session')), null);
  // Acting makes this session the one to keep: the alert goes and the link is saved.
  await page.getByRole('button', { name: '添加消费者' }).click();
  await alert.waitFor({ state: 'detached' });
  await page.waitForFunction(() => !location.hash.includes('damaged'));
  assert.deepEqual(errors, []);
  await context.close();
});
