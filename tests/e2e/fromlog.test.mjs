// Replaying a real Kafka log as an engineer would: the scenario importer recognises the log and
// says what to do; pasted into "Import a log" it replays from t=0, paused, with what was assumed;
// clicking one of its lines shows the session at that line's moment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, server, browser, useServerAndBrowser, openPage, screenshot, waitForText } from './harness.mjs';

useServerAndBrowser();

test('a pasted Kafka log replays from t=0 and a click on a log line goes to its moment', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const share = page.getByRole('region', { name: 'Share and save' });
  const log = await readFile(join(ROOT, 'lessons', '16-rebalance-storm.log'), 'utf8');

  // Given to the scenario importer, the log is recognised and the right importer offered.
  await share.getByLabel('Import JSON').setInputFiles({ name: 'storm.log', mimeType: 'text/plain', buffer: Buffer.from(log) });
  await waitForText(share.getByRole('alert'), /This is a Kafka log, not a scenario: use “Import a log”/);
  await share.getByRole('button', { name: 'Replay it as a log' }).waitFor();

  // Pasted into "Import a log".
  await share.getByText('Import a log', { exact: true }).click();
  await share.getByLabel('Log lines').fill(log);
  await share.getByRole('button', { name: 'Replay this log' }).click();
  await share.getByRole('status').filter({ hasText: 'Replayed Replay of group orders-app from 56 log lines, at t=0, paused.' }).waitFor();
  await page.getByTestId('clock').and(page.locator('[data-ms="0"]')).waitFor();
  await page.getByRole('toolbar').getByRole('button', { name: 'Play' }).waitFor();
  const panel = page.getByTestId('imported');
  await panel.getByText('Replay of group orders-app', { exact: true }).waitFor();
  await waitForText(panel, /max\.poll\.interval\.ms is 30000 ms \(its rebalanceTimeoutMs\) \(line 32\)/);

  // Line 33 of the log (the broker's rebalance after the poll timeout) is 36.041 s after the first
  // group line; clicking it shows the session there.
  const line = panel.getByTitle('Line 33 at 36.041 s');
  await line.scrollIntoViewIfNeeded();
  assert.match(await line.textContent(), /Preparing to rebalance group orders-app/);
  await line.click();
  await page.getByTestId('clock').and(page.locator('[data-ms="36041"]')).waitFor();
  assert.equal(await line.getAttribute('aria-current'), 'true');
  assert.equal(await page.getByRole('slider', { name: 'Timeline' }).inputValue(), '36041');
  await screenshot(page, 'fromlog-line-33');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The storm log as a production log shows it: without the group's creation (its first 20 lines),
 * the group already at generation 137 (every generation raised by 136).
 */
function midLife(storm) {
  return storm
    .split('\n')
    .slice(20)
    .map((l) => l.replace(/(generation |generationId=)(\d+)/g, (_, k, g) => `${k}${Number(g) + 136}`))
    .join('\n');
}

test('a log that begins with the group already formed replays with the log\'s generations', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const share = page.getByRole('region', { name: 'Share and save' });
  const log = midLife(await readFile(join(ROOT, 'lessons', '16-rebalance-storm.log'), 'utf8'));
  await share.getByText('Import a log', { exact: true }).click();
  await share.getByLabel('Log lines').fill(log);
  await share.getByRole('button', { name: 'Replay this log' }).click();
  const panel = page.getByTestId('imported');
  await panel.getByText('Replay of group orders-app', { exact: true }).waitFor();
  // What the replay does first is said.
  await waitForText(panel, /the log begins with the group already formed, at generation 137: the replay first forms it from an Empty group at generation 136/);
  // At the log's second storm (its line 34: the poll timeout after generation 138), the replay's
  // group is at the log's generation, 138.
  const line = panel.locator('[title^="Line 34 at "]');
  await line.scrollIntoViewIfNeeded();
  assert.match(await line.textContent(), /Preparing to rebalance group orders-app .*old generation 138/);
  await line.click();
  assert.equal(await line.getAttribute('aria-current'), 'true');
  await page.getByTestId('generation').filter({ hasText: /^138$/ }).waitFor();
  await page.getByTestId('group-state').filter({ hasText: /^Stable$/ }).waitFor();
  await screenshot(page, 'fromlog-mid-life');
  assert.deepEqual(errors, []);
  await context.close();
});
