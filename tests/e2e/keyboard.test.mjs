// Keyboard: the focus goes somewhere sensible after Kill; the log is one tab stop with arrow keys
// inside; the timeline's arrows step event by event (Shift: a second); stage nodes show a focus ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, addConsumers, settledGroup, setSpeed } from './harness.mjs';

useServerAndBrowser();

test('after Kill the focus stays in the consumer\'s actions; the log is one tab stop; the timeline steps by events', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { viewport: { width: 1366, height: 850 } });
  await addConsumers(page, 2);
  await setSpeed(page, 10);
  await settledGroup(page, 2);
  const toolbar = page.getByRole('toolbar');
  await toolbar.getByRole('button', { name: 'Pause' }).click();

  // Kill from the keyboard: the focus lands on the card's Restart, not on the page.
  const card = page.getByRole('article', { name: 'C1', exact: true });
  await card.getByRole('button', { name: 'Kill' }).focus();
  await page.keyboard.press('Enter');
  await card.getByRole('button', { name: 'Restart' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.textContent === 'Restart');
  assert.equal(await page.evaluate(() => document.activeElement.closest('article')?.getAttribute('data-consumer')), 'C1');

  // The log: one line is a tab stop; the arrows move between lines.
  const lines = page.getByRole('list', { name: 'Event log' }).locator('.log-line');
  await lines.nth(3).waitFor();
  assert.equal(await page.locator('.log-line[tabindex="0"]').count(), 1);
  await page.locator('.log-line[tabindex="0"]').focus();
  const first = await page.evaluate(() => document.activeElement.dataset.seq);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((s) => document.activeElement?.dataset.seq && document.activeElement.dataset.seq !== s, first);
  const second = await page.evaluate(() => document.activeElement.dataset.seq);
  assert.ok(Number(second) < Number(first), `down goes to an older line: ${first} -> ${second}`);
  assert.equal(await page.locator('.log-line[tabindex="0"]').count(), 1);
  assert.equal(await page.locator('.log-line[tabindex="0"]').getAttribute('data-seq'), second);
  await page.keyboard.press('End');
  await page.waitForFunction((s) => document.activeElement?.dataset.seq !== s, second);
  await page.keyboard.press('Home');
  await page.waitForFunction((s) => document.activeElement?.dataset.seq === s, first);

  // The timeline: ← goes back to the previous event (the newest log line is then at the clock).
  const slider = page.getByRole('slider', { name: 'Timeline' });
  const clock = async () => Number(await page.getByTestId('clock').getAttribute('data-ms'));
  const before = await clock();
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=clock]').dataset.ms) < b, before);
  const back = await clock();
  const newest = await page.locator('.log-line .log-time').first().textContent();
  assert.equal(newest, `${Math.floor(back / 1000)}.${String(back % 1000).padStart(3, '0')}`, 'the clock is on an event');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=clock]').dataset.ms) === b - 1000, back);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=clock]').dataset.ms) > b - 1000, back);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a stage node focused from the keyboard has a visible, high-contrast ring', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await addConsumers(page, 1);
  const node = page.getByRole('button', { name: /^Consumer C1, / });
  await node.waitFor();
  await page.keyboard.press('Tab');
  await node.focus();
  const ring = await node.evaluate((g) => getComputedStyle(g.querySelector('.stage-focus-ring')).stroke);
  assert.equal(ring, 'rgb(13, 17, 23)');
  const broker = page.getByRole('button', { name: /^broker 0, / });
  await broker.focus();
  assert.equal(await broker.evaluate((g) => getComputedStyle(g.querySelector('.stage-focus-ring')).stroke), 'rgb(13, 17, 23)');
  assert.deepEqual(errors, []);
  await context.close();
});
