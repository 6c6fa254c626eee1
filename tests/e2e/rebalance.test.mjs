// The rebalance as a user drives and sees it: adding, killing and closing consumers, in both
// languages. Every check waits for a visible condition with a timeout; nothing sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  server,
  browser,
  useServerAndBrowser,
  openPage,
  screenshot,
  setSpeed,
  waitForText,
  addConsumers,
  leaderName,
  SHOTS,
  settledGroup,
} from './harness.mjs';

useServerAndBrowser();

async function stableGroupOfThree(page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 3);
  await settledGroup(page, 3);
  return page.getByTestId('group-state');
}

test('three consumers reach Stable with generation ≥ 1 and exactly one leader', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stableGroupOfThree(page);

  const generation = Number(await page.getByTestId('generation').textContent());
  assert.ok(generation >= 1, `generation ${generation}`);
  assert.equal(await page.getByRole('article').count(), 3, 'one card per consumer');
  // One crowned node on the stage and one leader card.
  assert.equal(await page.getByRole('button', { name: /^Consumer C\d+, .*, leader$/ }).count(), 1);
  assert.equal(await page.getByRole('article').filter({ hasText: '♛' }).count(), 1);
  const leader = await leaderName(page);
  assert.match(leader, /^C[123]$/);
  // Every partition of test_topic gets an owner, written in words (the followers get theirs a
  // moment after the coordinator is Stable: their SyncGroup answers are still on their way).
  const partitions = page.getByRole('list', { name: 'test_topic' }).getByRole('listitem');
  assert.equal(await partitions.count(), 6);
  await page.waitForFunction(
    () => [...document.querySelectorAll('[aria-label^="test_topic partition"]')].every((e) => /: C\d/.test(e.getAttribute('aria-label'))),
    null,
    { timeout: 30_000 },
  );
  for (const label of await partitions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) {
    assert.match(label, /test_topic partition \d: C[123]/);
  }
  // The state changes were announced.
  assert.match(await page.getByRole('status').first().textContent(), /Group Stable, generation \d+, leader C/);
  await screenshot(page, 'rebalance-stable-en');
  assert.deepEqual(errors, []);
  await context.close();
});

test('killing the leader: PreparingRebalance after the session timeout, then a new leader', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stableGroupOfThree(page);
  const old = await leaderName(page);
  const generation = Number(await page.getByTestId('generation').textContent());

  await page.getByRole('article', { name: old, exact: true }).getByRole('button', { name: 'Kill' }).click();
  // Slower, as a teacher would: the explanations come one after the other. (At 2× the short
  // PreparingRebalance, until the others rejoin, lasts over a second: a test polling at 500 ms
  // on a busy machine could miss it at 5×.)
  await setSpeed(page, 3);
  await waitForText(page.getByRole('article', { name: old, exact: true }).getByTestId('client-state'), /killed/);
  // The coordinator notices only when the session (10 s virtual) expires; then the group rebalances.
  await waitForText(page.getByTestId('group-state'), /^PreparingRebalance$/);
  // Paused, the log says why (and nothing scrolls it away while we read).
  const toolbar = page.getByRole('toolbar');
  await toolbar.getByRole('button', { name: 'Pause' }).click();
  const log = page.getByRole('list', { name: 'Event log' });
  await waitForText(log.getByRole('button'), new RegExp(`No heartbeat from ${old}-\\d+ within session.timeout.ms`));
  await waitForText(log.getByRole('button'), /the group moves to PreparingRebalance/);
  await toolbar.getByRole('button', { name: 'Play' }).click();

  // A new generation with a new, living leader.
  await page.getByTestId('generation').filter({ hasText: new RegExp(`^(?!${generation}$)\\d+$`) }).waitFor();
  await settledGroup(page, 2);
  const now = await leaderName(page);
  assert.notEqual(now, old);
  assert.equal(await page.getByRole('button', { name: /^Consumer C\d+, .*, leader$/ }).count(), 1);
  await screenshot(page, 'rebalance-leader-killed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('closing a consumer animates its LeaveGroup and a rebalance follows', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stableGroupOfThree(page);
  const generation = Number(await page.getByTestId('generation').textContent());
  const leader = await leaderName(page);
  const victim = ['C1', 'C2', 'C3'].find((c) => c !== leader);

  // Slow motion, so that the message is on its way long enough to see (and to check).
  await setSpeed(page, -10);
  await page.getByRole('article', { name: victim, exact: true }).getByRole('button', { name: 'Close' }).click();
  const token = page.getByRole('button', { name: new RegExp(`^LeaveGroup request from ${victim} to broker 0`) });
  await token.waitFor({ timeout: 30_000 });
  const first = await token.boundingBox();
  await screenshot(page, 'rebalance-leave-group-in-flight');
  // It moves along its edge (unless the user asked for reduced motion, which this browser did not).
  await page.waitForFunction(
    ([x, y]) => {
      const el = [...document.querySelectorAll('[data-api="LeaveGroup"]')][0];
      if (!el) return true; // already delivered: it has moved all the way
      const b = el.getBoundingClientRect();
      return Math.abs(b.x - x) + Math.abs(b.y - y) > 2;
    },
    [first.x, first.y],
    { timeout: 10_000 },
  );

  // Still in slow motion (the log shows its latest 80 lines: at 5× a busy machine could let the
  // line scroll out before the test reads it), the coordinator removes the member and a rebalance
  // starts.
  const log = page.getByRole('list', { name: 'Event log' });
  await waitForText(log.getByRole('button'), new RegExp(`${victim}-\\d+ left with LeaveGroup`));
  await waitForText(page.getByTestId('group-state'), /^PreparingRebalance$/);
  await setSpeed(page, 5);
  await page.getByTestId('generation').filter({ hasText: new RegExp(`^(?!${generation}$)\\d+$`) }).waitFor();
  await settledGroup(page, 2);
  assert.equal(await page.getByTestId('member-count').textContent(), '2');
  await screenshot(page, 'rebalance-after-leave');
  assert.deepEqual(errors, []);
  await context.close();
});

test('in 中文 the group states are labelled in Chinese', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stableGroupOfThree(page);
  await page.getByRole('button', { name: '中文' }).click();
  assert.equal(await page.getByTestId('group-state').textContent(), '稳定（Stable）');
  const states = page.getByRole('list', { name: '经典消费者组的五种状态' }).getByRole('listitem');
  const names = await states.allTextContents();
  for (const zh of ['空', '准备重平衡', '完成重平衡', '稳定', '死亡']) {
    assert.ok(names.some((n) => n.startsWith(zh)), `${zh} in ${names}`);
  }
  // (The announcer says the glossary's 代 for generation since issue #13; it said "generation".)
  assert.match(await page.getByRole('status').first().textContent(), /^消费者组 稳定（Stable），第 \d+ 代/);
  // Explanations too.
  await waitForText(page.getByRole('list', { name: '事件日志' }).getByRole('button'), /消费者组进入 Stable/);
  await screenshot(page, 'rebalance-zh');
  assert.deepEqual(errors, []);
  await context.close();
});

test('clicking a moving message shows all its fields in the inspector', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, -10);
  await addConsumers(page, 1);
  const token = page.getByRole('button', { name: /^FindCoordinator request from C1 to broker 0/ });
  await token.waitFor();
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await token.click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await waitForText(inspector, /FindCoordinator request/);
  assert.match(await inspector.textContent(), /keytest_group_1/);
  // Step until the JoinGroup is on its way, then inspect it from the keyboard.
  const join = page.getByRole('button', { name: /^JoinGroup request from C1/ });
  for (let i = 0; i < 20 && !(await join.count()); i++) {
    await page.getByRole('toolbar').getByRole('button', { name: 'Step' }).click();
  }
  await join.first().focus();
  await page.keyboard.press('Enter');
  await waitForText(inspector, /protocols/);
  const text = await inspector.textContent();
  assert.match(text, /memberId/);
  assert.match(text, /range/);
  assert.match(text, /sessionTimeoutMs10000/);
  await screenshot(page, 'inspector-join-group');
  assert.deepEqual(errors, []);
  await context.close();
});

test('crashing the coordinator broker moves the coordinator; the group finds it again', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await stableGroupOfThree(page);
  const coordinator = page.getByRole('region', { name: 'Consumer group' }).locator('dd', { hasText: /^broker \d$/ });
  const before = await coordinator.textContent();
  // At 1× while the election line is read: the log shows only its latest 80 lines.
  await setSpeed(page, 0);
  await page.getByRole('button', { name: `Crash ${before}` }).click();
  await page.getByRole('button', { name: new RegExp(`^${before}, crashed`) }).waitFor();
  const log = page.getByRole('list', { name: 'Event log' });
  await waitForText(log.getByRole('button'), /is elected leader of __consumer_offsets-30/);
  await setSpeed(page, 10);
  await coordinator.filter({ hasNotText: before }).waitFor({ timeout: 30_000 });
  await settledGroup(page, 3);
  // Every running consumer talks to the new coordinator.
  await page.getByRole('button', { name: /, group coordinator, __consumer_offsets-30$/ }).waitFor();
  await screenshot(page, 'coordinator-crashed');
  await page.getByRole('button', { name: `Restart ${before}` }).click();
  await page.getByRole('button', { name: `Crash ${before}` }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('the replication panel shows each replica\'s LEO and the HW, and both move with commits', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 1);
  await settledGroup(page, 1);
  const panel = page.getByRole('region', { name: 'Replication: __consumer_offsets-30' });
  const replicas = panel.getByRole('table', { name: 'Replicas of __consumer_offsets-30' });
  assert.equal(await replicas.getByRole('row').count(), 4, 'a header row and three replicas');
  // On the stage, the two followers are named as replicas of the partition, for a screen reader too.
  assert.equal(await page.getByRole('button', { name: /^broker \d, replica, __consumer_offsets-30$/ }).count(), 2);
  const leader = replicas.getByRole('row').filter({ hasText: 'leader' });
  assert.equal(await leader.count(), 1, 'one leader, said in words');
  assert.equal(await replicas.getByRole('row').filter({ hasText: 'in the ISR' }).count(), 3);
  const hw = async () => Number(await panel.getByTestId('hw').textContent());
  const leos = async () => (await replicas.getByTestId('leo').allTextContents()).map(Number);
  const hw0 = await hw();
  const leo0 = await leos();
  assert.equal(leo0.length, 3);
  // Auto-commits every 5 s (virtual) append records: the leader's LEO grows, the followers fetch,
  // and the HW follows.
  await page.waitForFunction(
    ([h, l]) => {
      const hwNow = Number(document.querySelector('[data-testid=hw]').textContent);
      const leoNow = [...document.querySelectorAll('[data-testid=leo]')].map((e) => Number(e.textContent));
      return hwNow > h && leoNow.every((x, i) => x > l[i]);
    },
    [hw0, leo0],
    { timeout: 30_000 },
  );
  assert.ok((await hw()) > hw0);
  for (const [i, leo] of (await leos()).entries()) assert.ok(leo >= (await hw()) || leo > leo0[i], `replica ${i}: LEO ${leo}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a consumer giving its partitions up says "revoking"; a slowed follower leaves the ISR', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { viewport: { width: 1280, height: 1000 } });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 1);
  await settledGroup(page, 1);
  // Let C1 process a few batches, so that its auto-commit before the rebalance has work to do.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=clock]').dataset.ms) > 20_000, null, { timeout: 30_000 });
  // Slow one follower of __consumer_offsets-30 first: commits then wait for it until it leaves the ISR.
  const panel = page.getByRole('region', { name: 'Replication: __consumer_offsets-30' });
  await panel.getByRole('button', { name: /^Slow down broker \d$/ }).first().click();
  await waitForText(panel.getByRole('row'), /slow: fetches every 40 s/);
  await waitForText(panel.getByRole('row'), /out of the ISR/, 60_000);
  // A second consumer: the group rebalances. C1 hears of it with its next heartbeat and, at the end
  // of its batch, starts its eager rebalance with the auto-commit, its partitions pending
  // revocation. Paused, step by step until then.
  const toolbar = page.getByRole('toolbar');
  await toolbar.getByRole('button', { name: 'Pause' }).click();
  await addConsumers(page, 1);
  const c1 = page.getByRole('article', { name: 'C1', exact: true });
  const revoking = c1.locator('[data-testid=client-state][data-state=revoking]');
  for (let i = 0; i < 2000 && !(await revoking.count()); i++) {
    await page.keyboard.press('.');
  }
  await revoking.waitFor({ timeout: 5_000 });
  assert.equal((await c1.getByTestId('client-state').textContent()).trim(), 'revoking');
  assert.match(await c1.getByTestId('revoking').textContent(), /Revoking.*test_topic-0/);
  await screenshot(page, 'revoking-and-replication');
  // Close-ups of the two parts, to look at them at full size.
  await panel.screenshot({ path: join(SHOTS, 'replication-panel.png') });
  await c1.screenshot({ path: join(SHOTS, 'revoking-card.png') });
  await page.getByRole('button', { name: '中文' }).click();
  assert.equal((await c1.getByTestId('client-state').textContent()).trim(), '撤销中');
  await page.getByRole('region', { name: '副本复制：__consumer_offsets-30' }).getByText('不在 ISR 中').waitFor();
  await screenshot(page, 'revoking-and-replication-zh');
  assert.deepEqual(errors, []);
  await context.close();
});
