// The timeline: drag back to an earlier time and see that state, forward again to the same state;
// acting in the past forks a new future. Seeks restore snapshots: what they show must be what a
// replay from the start shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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
} from './harness.mjs';

useServerAndBrowser();

test('scrubbing back shows the earlier state, forward returns to the same state, acting forks', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 2);
  await settledGroup(page, 2);
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

test('while playing, the slider and the time follow the clock between events', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await addConsumers(page, 1);
  await settledGroup(page, 1);
  // A stable group logs little (a heartbeat every few seconds): the timeline must still move on
  // every frame, as the clock does, not only when the log grows.
  const read = () =>
    page.evaluate(() => ({
      clock: Number(document.querySelector('[data-testid=clock]').dataset.ms),
      slider: Number(document.querySelector('.timeline input[type=range]').value),
      max: Number(document.querySelector('.timeline input[type=range]').max),
      text: document.querySelector('.timeline-value').textContent,
    }));
  const tenths = (ms) => `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)} s`;
  let last = (await read()).clock;
  for (let i = 0; i < 8; i++) {
    await page.waitForFunction((t) => Number(document.querySelector('[data-testid=clock]').dataset.ms) > t, last);
    const now = await read();
    assert.equal(now.slider, now.clock, `the slider is at the clock's time (sample ${i})`);
    assert.equal(now.max, now.clock, 'playing live, the recorded end is now');
    assert.equal(now.text, `${tenths(now.clock)} / ${tenths(now.clock)}`);
    last = now.clock;
  }
  assert.deepEqual(errors, []);
  await context.close();
});

/** Imports `scenario` through the share bar (it opens at t=0, paused, replayed to its end) and
 * shows it at its end. */
async function importScenario(page, scenario) {
  await page
    .getByRole('region', { name: 'Share and save' })
    .getByLabel('Import JSON')
    .setInputFiles({ name: 'timeline.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
  await page.getByRole('slider', { name: 'Timeline' }).and(page.locator(`[max="${scenario.end_ms}"]`)).waitFor();
  await page.getByTestId('clock').and(page.locator('[data-ms="0"]')).waitFor();
  await seek(page, scenario.end_ms);
}

async function seek(page, ms) {
  await page.getByRole('slider', { name: 'Timeline' }).fill(String(ms));
  await page.getByTestId('clock').and(page.locator(`[data-ms="${ms}"]`)).waitFor();
}

test('seeking back and forth across snapshots shows what a replay from the start shows', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await addConsumers(page, 3);
  // The session as a file: three consumers, C2 killed at 61 s, C4 added at 122.5 s, 200 s long.
  const download = page.waitForEvent('download');
  await page.getByRole('region', { name: 'Share and save' }).getByRole('button', { name: 'Export JSON' }).click();
  const scenario = JSON.parse(await readFile(await (await download).path(), 'utf8'));
  const c1 = scenario.actions.find((a) => a.type === 'add_consumer').consumer;
  scenario.actions.push({ type: 'kill', at_ms: 61_000, consumer: 'C2' });
  scenario.actions.push({ type: 'add_consumer', at_ms: 122_500, consumer: { ...c1, name: 'C4', client_id: 'C4' } });
  scenario.end_ms = 200_000;
  await importScenario(page, scenario);
  const snapshots = Number(await page.locator('.timeline').getAttribute('data-snapshots'));
  assert.ok(snapshots >= 6, `a snapshot every 15 s of the 200 s: ${snapshots}`);

  // Back and forth: onto snapshot times, between them, both sides of the kill and of C4's join.
  const times = [150_000, 20_000, 95_000, 61_500, 199_000, 12_000, 60_000, 122_700, 30_000, 131_000];
  const seen = new Map();
  for (const t of times) {
    await seek(page, t);
    seen.set(t, await shownSession(page));
  }
  await screenshot(page, 'timeline-seek-snapshots');
  // The same times again, in another order: the same states.
  for (const t of [...times].reverse()) {
    await seek(page, t);
    assert.deepEqual(await shownSession(page), seen.get(t), `the state at ${t} ms, seen again`);
  }
  assert.equal(await page.getByRole('slider', { name: 'Timeline' }).getAttribute('max'), '200000');

  // Each state equals the session replayed from time 0 to that time (imported, then shown at its end).
  for (const t of [95_000, 61_500, 131_000, 12_000]) {
    const cut = { ...scenario, end_ms: t, actions: scenario.actions.filter((a) => a.at_ms <= t) };
    await importScenario(page, cut);
    assert.deepEqual(await shownSession(page), seen.get(t), `the state at ${t} ms, replayed from the start`);
  }
  const at = (t) => seen.get(t);
  assert.equal(at(12_000).generation, '1');
  assert.notEqual(at(60_000).cards.join(), at(61_500).cards.join(), 'the kill at 61 s shows');
  assert.equal(at(95_000).cards.length, 3);
  assert.equal(at(122_700).cards.length, 4, 'C4 from 122.5 s');
  assert.ok(Number(at(131_000).generation) > Number(at(95_000).generation));
  assert.deepEqual(errors, []);
  await context.close();
});
