// Random clicking for 60 seconds at full speed: no panic, no console error, whatever is clicked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  server,
  browser,
  useServerAndBrowser,
  openPage,
  screenshot,
  setSpeed,
  addConsumers,
} from './harness.mjs';

useServerAndBrowser();

/** A small seeded generator, so that a failing run can be replayed with the same SEED. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DURATION_MS = Number(process.env.CHAOS_MS ?? 60_000);
const KEYS = [' ', '.', 'ArrowRight', 'a', '+', '-', '?', 'Escape', 'p', 'Tab', 'Enter'];
const TEXT = ['', '0', '-5', 'abc', '999999999', '3000', 'C1', 'topic-x', '１２', '  '];

test(`random clicks, keys and typing for ${DURATION_MS / 1000} s raise no error`, { timeout: DURATION_MS + 120_000 }, async () => {
  const seed = Number(process.env.SEED ?? 20260601);
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 4);

  const started = Date.now();
  let actions = 0;
  while (Date.now() - started < DURATION_MS) {
    const roll = random();
    try {
      if (roll < 0.6) {
        const targets = page.locator('button:visible, [role=button]:visible, input[type=checkbox]:visible, summary:visible');
        const n = await targets.count();
        if (n) await targets.nth(Math.floor(random() * n)).click({ timeout: 400, noWaitAfter: true });
      } else if (roll < 0.75) {
        await page.keyboard.press(pick(KEYS));
      } else if (roll < 0.88) {
        const inputs = page.locator('input[type=text]:visible');
        const n = await inputs.count();
        if (n) await inputs.nth(Math.floor(random() * n)).fill(pick(TEXT), { timeout: 400 });
      } else if (roll < 0.94) {
        const selects = page.locator('select:visible');
        const n = await selects.count();
        if (n) {
          const s = selects.nth(Math.floor(random() * n));
          const options = await s.locator('option').evaluateAll((os) => os.map((o) => o.value));
          await s.selectOption(pick(options), { timeout: 400 });
        }
      } else {
        await setSpeed(page, Math.floor(random() * 21) - 10);
      }
    } catch (e) {
      // Playwright could not act (a token moved away, an overlay covered the target): not an app
      // error. App errors arrive through the console and pageerror listeners.
      if (!/Timeout|not visible|not stable|detached|intercepts pointer|not attached|outside of the viewport/i.test(String(e))) throw e;
    }
    actions++;
    if (errors.length) break;
  }
  await screenshot(page, 'chaos-end');
  assert.deepEqual(errors, [], `seed ${seed}, after ${actions} actions`);
  assert.ok(actions > 100, `only ${actions} actions`);
  await context.close();
});
