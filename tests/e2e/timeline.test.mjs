// The timeline: drag back to an earlier time and see that state, forward again to the same state;
// acting in the past forks a new future.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launchBrowser, openPage, screenshot, addConsumers, setSpeed, waitForText } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('scrubbing back shows the earlier state, forward returns to the same state, acting forks', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 2);
  await waitForText(page.getByTestId('group-state'), /^Stable$/);
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  const clock = page.getByTestId('clock');
  const end = await clock.getAttribute('data-ms');
  const generation = await page.getByTestId('generation').textContent();
  assert.ok(Number(generation) >= 1);

  const slider = page.getByRole('slider', { name: 'Timeline' });
  assert.equal(await slider.getAttribute('max'), end);
  await slider.fill('1000');
  await page.getByTestId('clock').and(page.locator('[data-ms="1000"]')).waitFor();
  assert.equal(await page.getByTestId('generation').textContent(), '0');
  assert.notEqual(await page.getByTestId('group-state').textContent(), 'Stable');
  assert.equal(await slider.getAttribute('max'), end, 'looking back keeps the later history');
  await screenshot(page, 'timeline-back');

  await slider.fill(end);
  await page.getByTestId('clock').and(page.locator(`[data-ms="${end}"]`)).waitFor();
  assert.equal(await page.getByTestId('generation').textContent(), generation);
  assert.equal(await page.getByTestId('group-state').textContent(), 'Stable');

  // Acting in the past forks: the later history is gone.
  await slider.fill('1000');
  await page.getByTestId('clock').and(page.locator('[data-ms="1000"]')).waitFor();
  const cards = await page.getByRole('article').count();
  await addConsumers(page, 1);
  await page.getByRole('slider', { name: 'Timeline' }).and(page.locator('[max="1000"]')).waitFor();
  assert.equal(await page.getByRole('article').count(), cards + 1);
  assert.deepEqual(errors, []);
  await context.close();
});
