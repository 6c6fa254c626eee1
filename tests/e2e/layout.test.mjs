// The screen a class sees: acting and watching share one screen at every size. The stage, the
// group's state, generation, leader and coordinator stay in view while the main controls are used,
// and an open lesson's narration is on screen with the stage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, screenshot, addConsumers, settledGroup, setSpeed } from './harness.mjs';

useServerAndBrowser();

/** Whether `locator`'s box lies (at least `part` of its height) inside the viewport. */
async function inView(page, locator, part = 1) {
  const box = await locator.boundingBox();
  const { height } = page.viewportSize();
  if (!box || box.height === 0) return false;
  const visible = Math.min(box.y + box.height, height) - Math.max(box.y, 0);
  return visible >= part * box.height - 1;
}

/** Where `locator` is, for a failure's message: its box, the window and the columns' scrolling. */
async function whereIs(page, locator) {
  const box = await locator.boundingBox();
  const cols = await page.evaluate(() =>
    [...document.querySelectorAll('.app-col')].map((c) => `${c.className.split(' ')[1]} ${c.scrollTop}/${c.scrollHeight - c.clientHeight}`),
  );
  return `box ${JSON.stringify(box)}, window ${JSON.stringify(page.viewportSize())}, columns scrolled ${cols.join(', ')}`;
}

async function assertWatching(page, what) {
  const group = page.getByRole('region', { name: /^(Consumer group|消费者组)/ });
  const fail = async (message, locator) => {
    const where = await whereIs(page, locator);
    await screenshot(page, `layout-failed-${page.viewportSize().width}`);
    assert.fail(`${what}: ${message} (${where})`);
  };
  // The facts' places: the generation's number itself slides in when it changes (its box moves
  // with the animation), so its cell is what has to be on screen.
  for (const [id, locator] of [
    ['group-state', group.getByTestId('group-state')],
    ['generation', group.locator('dd', { has: page.getByTestId('generation') })],
    ['leader', group.getByTestId('leader')],
    ['member-count', group.getByTestId('member-count')],
  ]) {
    if (!(await inView(page, locator))) await fail(`${id} is out of view`, locator);
  }
  const coordinator = group.getByText(/^broker \d+$/);
  if (!(await inView(page, coordinator))) await fail('the coordinator is out of view', coordinator);
  // Enough of the stage to watch it (on a phone the tall drawing is taller than the screen).
  const stage = page.locator('.stage-canvas');
  const box = await stage.boundingBox();
  const { height } = page.viewportSize();
  const visible = Math.min(box.y + box.height, height) - Math.max(box.y, 0);
  if (visible < Math.min(box.height, 250)) await fail(`only ${visible}px of the stage are in view`, stage);
}

for (const [name, viewport, extra] of [
  ['a laptop', { width: 1366, height: 850 }, {}],
  ['a projector in presentation mode', { width: 1920, height: 1080 }, { present: true }],
  ['a phone', { width: 390, height: 844 }, { hasTouch: true }],
]) {
  test(`on ${name}, adding, killing and pausing keep the stage and the group in view`, async () => {
    const { context, page, errors } = await openPage(browser, server.url, { viewport, hasTouch: extra.hasTouch });
    if (extra.present) await page.getByRole('button', { name: 'Presentation mode' }).click();
    const add = page.getByRole('button', { name: 'Add consumer' });
    assert.ok(await inView(page, add), 'Add consumer is on the first screen');
    await assertWatching(page, 'on opening');
    await addConsumers(page, 3);
    await assertWatching(page, 'after adding');
    await setSpeed(page, 10);
    await settledGroup(page, 3);
    // Select a consumer on the stage: its actions are beside the stage.
    await page.getByRole('button', { name: /^Consumer C2, / }).click();
    const actions = page.getByRole('group', { name: 'Actions on the stage' });
    await actions.getByText('C2', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Pause' }).click();
    await actions.getByRole('button', { name: 'Resume' }).waitFor();
    await assertWatching(page, 'after pausing');
    await actions.getByRole('button', { name: 'Kill' }).click();
    await actions.getByRole('button', { name: 'Restart' }).waitFor();
    await assertWatching(page, 'after killing');
    if (viewport.width > 1000) {
      // A wide screen is one screen: the page itself does not scroll; the detail panels scroll
      // in their column, and reaching the last of them leaves the stage where it is.
      const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      assert.ok(overflow <= 1, `the page scrolls by ${overflow}px`);
      await page.getByRole('region', { name: 'Share and save' }).scrollIntoViewIfNeeded();
      await page.getByRole('region', { name: 'Share and save' }).getByRole('button', { name: 'Copy link' }).waitFor();
      await assertWatching(page, 'with the last detail panel in view');
    }
    await page.screenshot({ path: `${(await screenshot(page, `layout-${viewport.width}`)).replace(/\.png$/, '-screen.png')}` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`on ${name}, an open lesson's narration is on screen with the stage`, async () => {
    const { context, page, errors } = await openPage(browser, server.url, { viewport, hasTouch: extra.hasTouch });
    if (extra.present) await page.getByRole('button', { name: 'Presentation mode' }).click();
    const panel = page.getByRole('region', { name: 'Lessons' });
    await panel.getByRole('button', { name: 'Open lesson' }).click();
    await panel.getByRole('button', { name: "28 (the article's figure)" }).click();
    const narration = panel.getByRole('heading', { name: 'Finding the coordinator' });
    await narration.waitFor();
    assert.ok(await inView(page, narration), 'the narration is in view');
    await assertWatching(page, 'in a lesson');
    await panel.getByRole('button', { name: 'Next' }).click();
    assert.ok(await inView(page, panel.getByTestId('lesson-step')), 'the step counter is in view after Next');
    await assertWatching(page, 'after Next');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('on a laptop, every panel of the side column holds its content: scrolled to, the event log is whole', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { viewport: { width: 1366, height: 850 } });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await addConsumers(page, 6);
  await settledGroup(page, 6);
  const log = page.getByRole('region', { name: 'Event log' });
  // (A full log is a box of fixed size: see styles.css.)
  await log.locator('.log-lines.is-full').waitFor({ state: 'attached' });
  // Scrolled to, as a reader would: its lines are laid out then (panels out of sight are not),
  // and so are the panels now in sight before it; the lines must stay where the scroll put them.
  const lines = log.locator('.log-lines');
  await lines.scrollIntoViewIfNeeded();
  await log.locator('.log-line').first().waitFor();
  // Until the layout has settled: the lines' place unchanged for 10 frames in a row.
  await page.evaluate(
    () =>
      new Promise((ok) => {
        let last = null;
        let same = 0;
        const frame = () => {
          const top = document.querySelector('.log-lines').getBoundingClientRect().top;
          same = top === last ? same + 1 : 0;
          last = top;
          if (same >= 10) ok();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  assert.ok(await inView(page, lines, 0.9), `the log's lines are where the scroll put them: ${await whereIs(page, lines)}`);
  // Every panel: none is shorter than what it holds, and none starts inside the one before it.
  const seen = await page.evaluate(() =>
    [...document.querySelectorAll('.app-col-side > .panel')].map((p) => {
      const r = p.getBoundingClientRect();
      return { name: p.className, top: r.top, height: r.height, content: p.scrollHeight };
    }),
  );
  const logPanel = seen.find((p) => p.name.includes('event-log'));
  assert.ok(logPanel, `the side column has the event log: ${JSON.stringify(seen)}`);
  assert.ok(logPanel.height >= logPanel.content - 1, `the event log holds its lines: ${JSON.stringify(logPanel)}`);
  for (let i = 1; i < seen.length; i++) {
    const before = seen[i - 1];
    assert.ok(seen[i].top >= before.top + before.height - 1, `${seen[i].name} starts after ${before.name}: ${JSON.stringify(seen)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
