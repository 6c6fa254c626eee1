// Compare mode as a user drives it: opened by its button, three consumers added, one killed; the
// ownership charts must show the eager group stopping as a whole (every member owns nothing at the
// same moment) and the cooperative group moving only the dead member's partitions. In both
// languages, by keyboard only, with reduced motion, and on a phone. Every check waits for a visible
// condition with a timeout; nothing sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, screenshot, setSpeed } from './harness.mjs';

useServerAndBrowser();

const OPEN = { en: 'Compare protocols', zh: '对比协议' };
const CLOSE = { en: 'Back to the session', zh: '返回会话' };
const KILL = { en: 'Kill', zh: '杀死' };

/** Every lane of a protocol's chart: consumer, and its stretches (kind, from, to, partitions). */
async function lanes(page, key) {
  return page.evaluate((key) => {
    const svg = document.querySelector(`[data-testid="chart-${key}"]`);
    if (!svg || svg.tagName.toLowerCase() !== 'svg') return [];
    return [...svg.querySelectorAll('.compare-lane')].map((l) => ({
      consumer: l.getAttribute('data-consumer'),
      segs: [...l.querySelectorAll('.compare-seg')].map((g) => ({
        kind: g.getAttribute('data-kind'),
        from: Number(g.getAttribute('data-from')),
        to: Number(g.getAttribute('data-to')),
        parts: g.getAttribute('data-parts') ? g.getAttribute('data-parts').split(',') : [],
      })),
    }));
  }, key);
}

/** Waits until both classic charts show `names` each owning something and all six partitions owned. */
async function settled(page, names, after = -1) {
  await page.waitForFunction(
    ({ names, after }) => ['eager', 'cooperative'].every((key) => {
      const svg = document.querySelector(`[data-testid="chart-${key}"]`);
      if (!svg || svg.tagName.toLowerCase() !== 'svg') return false;
      const parts = new Set();
      return names.every((n) => {
        const lane = svg.querySelector(`.compare-lane[data-consumer="${n}"]`);
        const segs = lane ? [...lane.querySelectorAll('.compare-seg')] : [];
        const last = segs[segs.length - 1];
        if (!last || last.getAttribute('data-kind') !== 'owns') return false;
        if (Number(last.getAttribute('data-from')) <= after) return false;
        last.getAttribute('data-parts').split(',').forEach((p) => parts.add(p));
        return true;
      }) && parts.size === 6;
    }),
    { names, after },
    { timeout: 90_000 },
  );
}

/** What the consumer owned just before `t`. */
function ownedBefore(lane, t) {
  const seg = lane.segs.find((s) => s.from < t && s.to >= t);
  return seg ? seg.parts : [];
}

/** The add-kill story in compare mode; returns the kill's virtual time. */
async function addThreeKillOne(page, lang, { keyboard = false } = {}) {
  if (keyboard) {
    // `a` is the add-consumer shortcut.
    for (let i = 0; i < 3; i++) await page.keyboard.press('a');
  } else {
    const add = page.getByRole('button', { name: lang === 'zh' ? /添加消费者/ : /Add consumer/ });
    for (let i = 0; i < 3; i++) await add.click();
  }
  await settled(page, ['C1', 'C2', 'C3']);
  const kill = page.getByRole('article', { name: 'C2', exact: true }).getByRole('button', { name: KILL[lang] });
  if (keyboard) {
    await kill.focus();
    await page.keyboard.press('Enter');
  } else {
    await kill.click();
  }
  // The kill is shown: C2's card says killed, and its lanes end.
  await page
    .getByRole('article', { name: 'C2', exact: true })
    .getByTestId('client-state')
    .and(page.locator('[data-state="killed"]'))
    .waitFor({ timeout: 30_000 });
  const killAt = await page.evaluate(() => {
    const segs = [...document.querySelectorAll('[data-testid="chart-cooperative"] .compare-lane[data-consumer="C2"] .compare-seg')];
    return Number(segs[segs.length - 1].getAttribute('data-to'));
  });
  // The survivors settle again with the six partitions between them.
  await settled(page, ['C1', 'C3'], killAt);
  return killAt;
}

/** The checks of the issue: eager stops the world, cooperative moves only C2's partitions. */
async function checkLanes(page, killAt) {
  const eager = await lanes(page, 'eager');
  const survivors = eager.filter((l) => l.consumer !== 'C2');
  assert.equal(survivors.length, 2, JSON.stringify(eager));
  const gaps = survivors.map((l) => l.segs.filter((s) => s.kind === 'owns-nothing' && s.from >= killAt));
  assert.ok(gaps.every((g) => g.length > 0), `every eager member owns nothing after the kill: ${JSON.stringify(survivors)}`);
  const overlap = gaps[0].some((a) => gaps[1].some((b) => Math.max(a.from, b.from) < Math.min(a.to, b.to)));
  assert.ok(overlap, `a moment when the whole eager group owns nothing: ${JSON.stringify(gaps)}`);

  const coop = await lanes(page, 'cooperative');
  const dead = ownedBefore(coop.find((l) => l.consumer === 'C2'), killAt);
  assert.equal(dead.length, 2, JSON.stringify(coop));
  for (const lane of coop.filter((l) => l.consumer !== 'C2')) {
    const before = ownedBefore(lane, killAt);
    assert.equal(before.length, 2, JSON.stringify(lane));
    for (const s of lane.segs.filter((s) => s.from >= killAt)) {
      assert.notEqual(s.kind, 'owns-nothing', `${lane.consumer} keeps consuming: ${JSON.stringify(s)}`);
      assert.ok(before.every((p) => s.parts.includes(p)), `${lane.consumer} keeps ${before}: ${JSON.stringify(s)}`);
      // What it gained is C2's.
      assert.ok(s.parts.every((p) => before.includes(p) || dead.includes(p)), JSON.stringify(s));
    }
  }
  // The numbers beside the pictures: eager revoked more.
  const revoked = async (key) =>
    Number(await page.getByTestId(`summary-${key}`).locator('[data-stat="revoked"] dd').textContent());
  assert.ok((await revoked('eager')) > (await revoked('cooperative')));
}

async function open(page, lang) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('button', { name: OPEN[lang] }).click();
  await page.getByTestId('compare').waitFor();
  await setSpeed(page, 10);
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: compare mode shows the eager stop-the-world and cooperative's moved partitions`, async () => {
    const { context, page, errors } = await openPage(browser, server.url, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await open(page, lang);
    // Three columns; the consumer protocol says why it does not run yet (or runs, once its client lands).
    assert.equal(await page.getByRole('tabpanel').count(), 3);
    const unavailable = page.getByTestId('compare-unavailable-consumer');
    if (await unavailable.count()) {
      assert.match(await unavailable.textContent(), lang === 'zh' ? /本引擎暂不支持：.*group_protocol/ : /Not available in this engine yet: .*group_protocol/);
    }
    const killAt = await addThreeKillOne(page, lang);
    await page.getByRole('toolbar').getByRole('button', { name: lang === 'zh' ? /暂停|Pause/ : 'Pause' }).click();
    await checkLanes(page, killAt);
    // The consumer protocol's column is headed by its own group: a consumer group's state and
    // epochs, not a classic generation.
    if (!(await unavailable.count())) {
      const heading = page.getByTestId('compare-group-consumer');
      await heading.waitFor({ state: 'attached' });
      assert.match(await heading.getAttribute('data-state'), /^(Empty|Assigning|Reconciling|Stable)$/);
      assert.ok(Number(await heading.getAttribute('data-group-epoch')) >= 1);
      assert.match(await heading.textContent(), lang === 'zh' ? /组 epoch \d+（目标 \d+）/ : /group epoch \d+ \(target \d+\)/);
    }
    // The link carries the mode.
    await page.waitForFunction(() => location.hash.startsWith('#s=compare&rb1.'));
    await screenshot(page, `compare-${lang}`);
    // Leaving returns to the normal session (still empty: nothing was added to it).
    await page.getByRole('button', { name: CLOSE[lang] }).click();
    await page.getByTestId('group-state').waitFor();
    assert.equal(await page.getByTestId('compare').count(), 0);
    assert.equal(await page.getByRole('article').count(), 0, 'the session left behind has no consumer');
    await page.waitForFunction(() => /^#s=rb1\./.test(location.hash));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a compare link opens in compare mode, and reloads there', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await open(page, 'en');
  await page.getByRole('button', { name: /Add consumer/ }).click();
  await settled(page, ['C1']);
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#s=compare&rb1.'));
  const link = await page.evaluate(() => location.href);
  const other = await openPage(browser, link);
  await other.page.getByTestId('compare').waitFor();
  await other.page.locator('[data-testid="chart-eager"] .compare-lane[data-consumer="C1"]').waitFor();
  assert.deepEqual(other.errors, []);
  await other.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('keyboard only: open compare mode, add, kill, read the charts, leave', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // Tab to the button as a keyboard user would.
  let found = false;
  for (let i = 0; i < 60 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate((name) => document.activeElement?.textContent?.trim() === name, OPEN.en);
  }
  assert.ok(found, 'the Compare protocols button is reachable with Tab');
  await page.keyboard.press('Enter');
  await page.getByTestId('compare').waitFor();
  // Faster with the keyboard's + key.
  await page.locator('body').focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('+');
  const killAt = await addThreeKillOne(page, 'en', { keyboard: true });
  await page.keyboard.press(' ');
  await checkLanes(page, killAt);
  const back = page.getByRole('button', { name: CLOSE.en });
  await back.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('group-state').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('reduced motion and a phone: one protocol at a time behind tabs', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce', hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await open(page, 'en');
  const tabs = page.getByRole('tab');
  assert.equal(await tabs.count(), 3);
  assert.ok(await page.locator('#compare-eager').isVisible());
  assert.ok(!(await page.locator('#compare-cooperative').isVisible()));
  await page.getByRole('tab', { name: 'Classic, cooperative' }).click();
  assert.ok(await page.locator('#compare-cooperative').isVisible());
  assert.ok(!(await page.locator('#compare-eager').isVisible()));
  // Nothing in compare mode animates under reduced motion.
  const moving = await page.evaluate(() =>
    [...document.querySelectorAll('.compare *')].filter((el) => {
      const cs = getComputedStyle(el);
      return cs.animationName !== 'none' || parseFloat(cs.transitionDuration) > 0;
    }).length,
  );
  assert.equal(moving, 0);
  // No horizontal scrolling on the phone.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [w, h] of [[1366, 850], [1920, 1080], [390, 844]]) {
  for (const lang of ['en', 'zh']) {
    test(`screenshot ${w}x${h} ${lang}`, async () => {
      const { context, page, errors } = await openPage(browser, server.url, {
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
        viewport: { width: w, height: h },
      });
      await open(page, lang);
      const killAt = await addThreeKillOne(page, lang);
      assert.ok(killAt > 0);
      await page.getByRole('toolbar').getByRole('button', { name: lang === 'zh' ? /暂停|Pause/ : 'Pause' }).click();
      await screenshot(page, `compare-${w}x${h}-${lang}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}
