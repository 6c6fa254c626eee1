// The sequence diagram: lifelines and arrows for three consumers joining, error responses drawn
// differently, a click (or Enter) on a message moves the timeline there, and the SVG export is a
// standalone, well-formed SVG with the lifelines (a consumer name with `&`, which XML escapes, and a
// character outside ASCII; `<` and `>` are refused in names, by the form as by the share format).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  server,
  browser,
  useServerAndBrowser,
  openPage,
  screenshot,
  addConsumers,
  setSpeed,
  waitForText,
  SHOTS,
  settledGroup,
} from './harness.mjs';

useServerAndBrowser();

test('three consumers join: lifelines, JoinGroup and SyncGroup arrows, errors drawn differently, click and Enter jump, SVG export', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { viewport: { width: 1400, height: 1000 } });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  // The three join at the same moment (added while paused), so one rebalance takes them all and
  // the diagram's window holds it whole, however busy the machine.
  const toolbar = page.getByRole('toolbar');
  await toolbar.getByRole('button', { name: 'Pause' }).click();
  await page.getByLabel('Name', { exact: true }).fill('R&D ♥3');
  await page.getByRole('button', { name: 'Add consumer' }).click();
  await addConsumers(page, 2);
  await toolbar.getByRole('button', { name: 'Play' }).click();
  await settledGroup(page, 3);
  await toolbar.getByRole('button', { name: 'Pause' }).click();

  const view = page.getByTestId('sequence-diagram');
  await view.getByText('Sequence diagram', { exact: true }).click();
  // Routine traffic off: the whole rebalance fits in the window.
  await view.getByLabel('Show heartbeats and offset commits').uncheck();
  const diagram = view.getByRole('group', { name: 'Sequence diagram of the protocol messages' });
  await diagram.waitFor();

  const lanes = await view.locator('.seq-heads .seq-lane').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
  assert.equal(lanes[0], 'broker 0', 'the coordinator first');
  for (const name of ['R&D ♥3', 'C2', 'C3']) assert.ok(lanes.includes(name), `${name} in ${lanes}`);
  assert.equal(await view.locator('.seq-heads .seq-lane-role').first().textContent(), 'coordinator');

  for (const name of ['R&D ♥3', 'C2', 'C3']) {
    const joins = diagram.getByRole('button', { name: new RegExp(`JoinGroup request from ${name.replace(/[<>&]/g, '.')} to broker 0`) });
    assert.ok((await joins.count()) >= 2, `${name}: JoinGroup, MEMBER_ID_REQUIRED, JoinGroup again`);
    const syncs = diagram.getByRole('button', { name: new RegExp(`SyncGroup request from ${name.replace(/[<>&"]/g, '.')}`) });
    assert.ok((await syncs.count()) >= 1, `${name}: SyncGroup`);
  }

  // KIP-394: each first JoinGroup is answered MEMBER_ID_REQUIRED, drawn unlike a normal response.
  const errorsDrawn = diagram.locator('.seq-msg.is-error[data-error="MEMBER_ID_REQUIRED"]');
  assert.ok((await errorsDrawn.count()) >= 3);
  assert.match(await errorsDrawn.first().getAttribute('aria-label'), /JoinGroup error from broker 0 to .*, error MEMBER_ID_REQUIRED/);
  assert.match(await errorsDrawn.first().locator('.seq-label').textContent(), /JoinGroup ✕ MEMBER_ID_REQUIRED/);
  const ok = diagram.locator('.seq-msg.is-response:not(.is-error)[data-api="SyncGroup"]').first();
  const look = (loc) =>
    loc.locator('.seq-line').evaluate((l) => {
      const s = getComputedStyle(l);
      return { width: s.strokeWidth, dash: s.strokeDasharray, colour: s.stroke };
    });
  const bad = await look(errorsDrawn.first());
  const good = await look(ok);
  assert.notEqual(bad.width, good.width, 'thicker');
  assert.notEqual(bad.colour, good.colour);
  assert.equal(bad.dash, good.dash, 'a response still (dashed)');
  const request = await look(diagram.locator('.seq-msg.is-request[data-api="SyncGroup"]').first());
  assert.equal(request.dash, 'none', 'requests are solid');
  assert.notEqual(good.dash, 'none', 'responses are dashed');
  // Drawn at its own scale: each lane's lifeline in the rows is under its head, and a label is
  // as large as the stylesheet says (a shrunk drawing would be scaled down off its heads).
  const geometry = await view.evaluate((root) => {
    const x = (el) => {
      const r = el.getBoundingClientRect();
      return r.left + r.width / 2;
    };
    const heads = [...root.querySelectorAll('.seq-heads .seq-lane .seq-lifeline')].map(x);
    const lines = [...root.querySelectorAll('.seq-body > g > .seq-lifeline')].map(x);
    const body = root.querySelector('.seq-body');
    return {
      heads,
      lines,
      height: body.getBoundingClientRect().height,
      declared: Number(body.getAttribute('height')),
      label: root.querySelector('.seq-body .seq-label').getBoundingClientRect().height,
    };
  });
  assert.equal(geometry.lines.length, geometry.heads.length);
  geometry.lines.forEach((x, i) => assert.ok(Math.abs(x - geometry.heads[i]) < 1, `lane ${i}: row line at ${x}, head at ${geometry.heads[i]}`));
  assert.ok(Math.abs(geometry.height - geometry.declared) < 1, `drawn ${geometry.height} px high, declared ${geometry.declared}`);
  assert.ok(geometry.label >= 11, `a label is ${geometry.label} px high`);
  await screenshot(page, 'sequence-diagram');
  await view.screenshot({ path: join(SHOTS, 'sequence-diagram-panel.png') });

  // Click a message: the timeline moves to the moment it was sent, the inspector shows it.
  const sync = diagram.getByRole('button', { name: /SyncGroup request from C2/ });
  const sentMs = await sync.getAttribute('data-sent-ms');
  await sync.click();
  await page.getByTestId('clock').and(page.locator(`[data-ms="${sentMs}"]`)).waitFor();
  assert.equal(await page.getByRole('slider', { name: 'Timeline' }).inputValue(), sentMs);
  await diagram.getByTestId('sequence-now').and(page.locator(`[data-ms="${sentMs}"]`)).waitFor();
  const selected = diagram.locator('.seq-msg[aria-pressed="true"]');
  assert.equal(await selected.count(), 1);
  assert.equal(await selected.getAttribute('data-sent-ms'), sentMs);
  await waitForText(page.locator('.inspector-title'), /SyncGroup/);
  assert.ok((await diagram.locator('.seq-msg.is-later').count()) > 0, 'the recorded messages after it, paler');
  await view.screenshot({ path: join(SHOTS, 'sequence-diagram-jumped.png') });

  // Keyboard: focus a later message and press Enter.
  const later = diagram.locator('.seq-msg.is-later').first();
  const laterMs = await later.getAttribute('data-sent-ms');
  assert.ok(Number(laterMs) >= Number(sentMs));
  const laterId = await later.getAttribute('data-msg');
  await later.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('clock').and(page.locator(`[data-ms="${laterMs}"]`)).waitFor();
  await page.waitForFunction((id) => document.activeElement?.getAttribute('data-msg') === id, laterId);
  assert.equal(await page.locator(`[data-msg="${laterId}"]`).getAttribute('aria-pressed'), 'true', 'focus stays on it, now selected');

  // Export: a standalone SVG that parses as XML and holds every lifeline.
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Download SVG' }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), 'sequence-diagram.svg');
  const text = await readFile(await file.path(), 'utf8');
  assert.ok(text.includes('R&amp;D ♥3'), 'the name is escaped');
  const parsed = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: root.localName,
      ns: root.namespaceURI,
      style: doc.getElementsByTagName('style').length,
      lanes: [...doc.querySelectorAll('.seq-lane-name')].map((t) => t.textContent),
      messages: doc.querySelectorAll('.seq-msg').length,
      title: doc.querySelector('title')?.textContent,
    };
  }, text);
  assert.equal(parsed.error, 0, 'well-formed');
  assert.equal(parsed.root, 'svg');
  assert.equal(parsed.ns, 'http://www.w3.org/2000/svg');
  assert.equal(parsed.style, 1, 'its own styles');
  for (const name of ['broker 0', 'R&D ♥3', 'C2', 'C3']) assert.ok(parsed.lanes.includes(name), `${name} in ${parsed.lanes}`);
  assert.ok(parsed.messages > 10);
  assert.match(parsed.title, /^Consumer group test_group_1: protocol messages/);

  // 中文.
  await page.getByRole('button', { name: '中文' }).click();
  await view.getByText('时序图', { exact: true }).waitFor();
  const zhLabel = await view.locator('.seq-msg[data-api="JoinGroup"]').first().getAttribute('aria-label');
  assert.ok(await view.getByRole('group', { name: '协议消息时序图' }).isVisible());
  assert.match(zhLabel, /JoinGroup (请求|错误)，从 .* 到 /);
  assert.ok(await view.getByRole('button', { name: '下载 SVG' }).isVisible());
  assert.deepEqual(errors, []);
  await context.close();
});

test('with many messages only a window is drawn, and it follows the time', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 8);
  const view = page.getByTestId('sequence-diagram');
  await view.getByText('Sequence diagram', { exact: true }).click();
  const now = view.getByTestId('sequence-now');
  await waitForText(page.getByTestId('group-state'), /^Stable$/);
  const first = Number(await now.getAttribute('data-ms'));
  await page.waitForFunction(
    (t) => Number(document.querySelector('[data-testid=sequence-now]').getAttribute('data-ms')) > t + 5_000,
    first,
  );
  const rows = await view.locator('.seq-body .seq-msg').count();
  // The last 40 (PAST), up to 15 more back to a multiple of 16 in message ids (CHUNK), 8 later.
  assert.ok(rows > 20 && rows < 40 + 16 + 8, `${rows} rows drawn`);
  // The marker of the shown time is in the scrolled view.
  const visible = await page.evaluate(() => {
    const box = document.querySelector('.sequence-scroll').getBoundingClientRect();
    const line = document.querySelector('.seq-now').getBoundingClientRect();
    return line.top >= box.top - 1 && line.bottom <= box.bottom + 1;
  });
  assert.ok(visible, 'scrolled to the shown time');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a message focused from the keyboard keeps the focus while the simulation plays and redraws the diagram', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { viewport: { width: 1400, height: 1000 } });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await setSpeed(page, 10);
  await addConsumers(page, 2);
  await settledGroup(page, 2);
  const view = page.getByTestId('sequence-diagram');
  await view.getByText('Sequence diagram', { exact: true }).click();
  const diagram = view.getByRole('group', { name: 'Sequence diagram of the protocol messages' });
  await diagram.waitFor();
  // Still playing, at 1x: heartbeats keep arriving and the rows are redrawn, slowly enough that
  // the focused row stays well inside the window of the last 40 however slow the machine is (at
  // 10x a busy machine took long enough for it to reach the window's top, and Shift+Tab left the
  // diagram).
  await setSpeed(page, 0);
  // The latest message: it stays in the window (the last 40) for a while.
  // (The locator of "the last row" would find a newer row if one arrives in between: the row is
  // focused by its id.)
  const id = await diagram.locator('.seq-msg:not(.is-later)').last().getAttribute('data-msg');
  await diagram.locator(`.seq-msg[data-msg="${id}"]`).focus();
  const focusedMessage = () => document.activeElement?.closest('[data-msg]')?.getAttribute('data-msg');
  const hasFocus = (want) => document.activeElement?.closest('[data-msg]')?.getAttribute('data-msg') === want;
  // The focus is there before the simulation moves on (a condition, not a pause).
  await page.waitForFunction(hasFocus, id);
  const marker = diagram.getByTestId('sequence-now');
  const before = await marker.getAttribute('data-ms');
  // Wait for a redraw (the shown time moves on), then look where the focus is.
  await page.waitForFunction(
    (ms) => Number(document.querySelector('[data-testid=sequence-now]')?.getAttribute('data-ms')) > Number(ms),
    before,
  );
  assert.equal(await diagram.locator(`.seq-msg[data-msg="${id}"]`).count(), 1, 'still in the window');
  // A redraw gives the focus back to the same message as it lands (the rows are redrawn every
  // 100 ms while playing): wait for that state rather than reading the focus at one instant.
  await page.waitForFunction(hasFocus, id, { timeout: 5_000 }).catch(() => {});
  assert.equal(await page.evaluate(focusedMessage), id, 'the same message still has the focus');
  // Shift+Tab moves to the message before it.
  await page.keyboard.press('Shift+Tab');
  const next = await page.evaluate(() => document.activeElement?.closest('[data-msg]')?.getAttribute('data-msg'));
  assert.ok(next && next !== id, `${next} after ${id}`);
  assert.deepEqual(errors, []);
  await context.close();
});
