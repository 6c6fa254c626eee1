// The app shell as a user meets it: title, the empty group, and the language switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, screenshot, addConsumers, SHOTS, tookOver } from './harness.mjs';

useServerAndBrowser();

test('an English browser sees the app shell with a new, empty group', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { locale: 'en-US' });
  const title = page.getByRole('heading', { level: 1 });
  await title.waitFor();
  assert.equal(await title.textContent(), 'Kafka Rebalance Playground');
  assert.equal(await page.title(), 'Kafka Rebalance Playground');

  const group = page.getByRole('region', { name: 'Consumer group' });
  assert.equal(await group.getByTestId('group-state').textContent(), 'Empty');
  assert.equal(await group.getByTestId('generation').textContent(), '0');
  const states = page.getByRole('list', { name: 'The five states of a classic consumer group' });
  assert.equal(await states.getByRole('listitem').count(), 5);
  assert.match(await states.locator('[aria-current=step]').textContent(), /^Empty/);
  // The share field holds the session's link as soon as it is shown (not an empty `#s=`).
  const shareLink = page.getByRole('textbox', { name: 'Share link' });
  await shareLink.waitFor();
  assert.match(await shareLink.inputValue(), /#s=rb1\.\S+$/);

  await screenshot(page, 'app-shell-en');
  assert.deepEqual(errors, []);
  await context.close();
});

test('switching to 中文 translates the page, and the choice survives a reload', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { locale: 'en-US' });
  const chinese = page.getByRole('button', { name: '中文' });
  await chinese.click();

  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Kafka 消费者组重平衡演示');
  assert.equal(await chinese.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed'), 'false');
  const group = page.getByRole('region', { name: '消费者组' });
  assert.equal(await group.getByTestId('group-state').textContent(), '空（Empty）');
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  await screenshot(page, 'app-shell-zh');

  await page.reload();
  await tookOver(page);
  await page.getByRole('heading', { level: 1, name: 'Kafka 消费者组重平衡演示' }).waitFor();

  await page.getByRole('button', { name: 'English' }).click();
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Kafka Rebalance Playground');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Chinese browser starts in Chinese; keyboard alone can switch language', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await page.getByRole('heading', { level: 1, name: 'Kafka 消费者组重平衡演示' }).waitFor();

  // Tab to the English button and press Enter, as a keyboard user would.
  const english = page.getByRole('button', { name: 'English' });
  for (let i = 0; i < 10 && !(await english.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  assert.ok(await english.evaluate((el) => el === document.activeElement), 'English button reachable by Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Kafka Rebalance Playground');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone-sized screen nothing overflows sideways', async () => {
  const { context, page, errors } = await openPage(browser, server.url, {
    locale: 'zh-CN',
    viewport: { width: 375, height: 740 },
    hasTouch: true,
  });
  await page.getByRole('heading', { level: 1 }).waitFor();
  const overflow = async () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok((await overflow()) <= 0, `page is ${await overflow()}px wider than the screen`);
  await screenshot(page, 'app-shell-phone');
  // With consumers, cards and the log must fit too; controls stay big enough to tap.
  await addConsumers(page, 3);
  await page.getByRole('article').nth(2).waitFor();
  assert.ok((await overflow()) <= 0, `page is ${await overflow()}px wider than the screen with consumers`);
  const small = await page.locator('button:visible').evaluateAll((bs) =>
    bs.filter((b) => b.getBoundingClientRect().height < 36).map((b) => b.textContent));
  assert.deepEqual(small, [], 'buttons shorter than 36 px');
  // The stage is drawn tall on a phone, so its words stay readable: the wide drawing scaled down
  // to the screen made them about 5 px high.
  const heights = await page.locator('.stage-consumer-state, .stage-broker-role').evaluateAll((ts) =>
    ts.map((t) => t.getBoundingClientRect().height));
  assert.ok(heights.length >= 4 && Math.min(...heights) >= 10, `stage text heights: ${heights}`);
  // The state diagram is scaled down too; its state names get larger type (their line boxes were
  // 12 px high, 10 px letters).
  const names = await page.locator('.state-node-name').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
  assert.ok(names.length === 5 && Math.min(...names) >= 13.5, `state name heights: ${names}`);
  await page.locator('.stage').screenshot({ path: `${SHOTS}/app-shell-phone-stage.png` });
  await screenshot(page, 'app-shell-phone-consumers');
  // The group's state is docked on the screen with the stage (issue #13: it used to follow the
  // stage in the page, about 1,100 px down, out of sight of the drawing), before the consumer cards.
  const stageBox = await page.getByRole('region', { name: 'Broker 与消费者' }).boundingBox();
  const stateBox = await page.getByTestId('group-state').boundingBox();
  const firstCard = await page.getByRole('article').first().evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(stageBox.y < stateBox.y && stateBox.y < firstCard, `stage at ${stageBox.y}, state at ${stateBox.y}, cards at ${firstCard}`);
  assert.ok(stateBox.y >= 0 && stateBox.y + stateBox.height <= 740 && stageBox.y + stageBox.height > 0,
    `the state (${stateBox.y}) and the stage (${stageBox.y}..${stageBox.y + stageBox.height}) share the 740px screen`);
  // A tap on a consumer opens the inspector over the bottom of the screen, not far down the page.
  await page.getByRole('button', { name: /^消费者 C2/ }).tap();
  const inspector = page.getByRole('region', { name: '详情' });
  await inspector.getByRole('heading', { name: /消费者 C2/ }).waitFor();
  const box = await inspector.boundingBox({ timeout: 2_000 });
  assert.ok(box.y > 740 * 0.3 && box.y + box.height <= 741, `inspector at ${box.y}..${box.y + box.height} on a 740px screen`);
  await page.screenshot({ path: `${SHOTS}/app-shell-phone-inspector.png` });
  await inspector.getByRole('button', { name: '关闭详情' }).tap();
  await inspector.getByRole('heading', { name: /消费者 C2/ }).waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('presentation mode enlarges the text and is remembered', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { locale: 'en-US', viewport: { width: 1920, height: 1080 } });
  const toggle = page.getByRole('button', { name: 'Presentation mode' });
  const size = () => page.locator('.app').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const before = await size();
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.ok((await size()) >= before * 1.25, 'text is larger');
  await addConsumers(page, 3);
  await page.getByRole('slider', { name: 'Speed' }).fill('10');
  await page.getByTestId('group-state').filter({ hasText: /^Stable$/ }).waitFor({ timeout: 30_000 });
  await screenshot(page, 'presentation-mode');
  await page.reload();
  await tookOver(page);
  assert.equal(await page.getByRole('button', { name: 'Presentation mode' }).getAttribute('aria-pressed'), 'true');
  // The shortcuts listen once the page has settled (its last panels are shown a frame after the
  // first paint); a key pressed before that goes nowhere.
  await page.getByRole('region', { name: 'Share and save' }).waitFor();
  await page.keyboard.press('p');
  await page.getByRole('button', { name: 'Presentation mode', pressed: false }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('with reduced motion, messages jump instead of gliding', async () => {
  const context = await browser.newContext({ locale: 'en-US', reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  await tookOver(page);
  await page.getByRole('slider', { name: 'Speed' }).fill('-10');
  await addConsumers(page, 1);
  const token = page.getByRole('button', { name: /^FindCoordinator request from C1/ });
  await token.waitFor();
  // Sampled over the flight, the token is only ever at one of two places.
  const places = new Set();
  for (let i = 0; i < 40 && (await token.count()); i++) {
    // (Short: the token may land between count() and here, and a locator waits for it.)
    const box = await token.boundingBox({ timeout: 200 }).catch(() => null);
    if (box) places.add(`${Math.round(box.x)},${Math.round(box.y)}`);
    await page.waitForFunction(() => new Promise((ok) => requestAnimationFrame(() => ok(true))));
  }
  assert.ok(places.size >= 1 && places.size <= 2, `token seen at ${[...places].join(' ')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the help dialog keeps the focus; Escape closes it and gives focus back to its button', async () => {
  const { context, page, errors } = await openPage(browser, server.url, { locale: 'en-US' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  const opener = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  const focused = () => page.evaluate(() => {
    const el = document.activeElement;
    return el.getAttribute('aria-label') ?? el.textContent.trim();
  });
  const inside = () => dialog.evaluate((d) => d.contains(document.activeElement));
  assert.equal(await focused(), 'Close', 'the dialog takes focus');
  // Tab and Shift+Tab go round its two controls and never reach the page behind.
  const forward = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    assert.ok(await inside(), `Tab ${i + 1} left the dialog`);
    forward.push(await focused());
  }
  assert.deepEqual(forward, ['Close the help', 'Close', 'Close the help', 'Close']);
  const backward = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Shift+Tab');
    assert.ok(await inside(), `Shift+Tab ${i + 1} left the dialog`);
    backward.push(await focused());
  }
  assert.deepEqual(backward, ['Close the help', 'Close', 'Close the help']);
  // Focus put on the page behind comes back into the dialog.
  await page.getByRole('button', { name: 'Presentation mode' }).evaluate((b) => b.focus());
  assert.ok(await inside(), 'focus pulled back into the dialog');
  // The page's shortcuts do not fire behind the dialog.
  await page.keyboard.press('a');
  assert.equal(await page.getByRole('article').count(), 0, 'no consumer added behind the dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.ok(await opener.evaluate((el) => el === document.activeElement), 'focus is back on the help button');
  await page.keyboard.press('?');
  await dialog.waitFor();
  await screenshot(page, 'help-dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
});
