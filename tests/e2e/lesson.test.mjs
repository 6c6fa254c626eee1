// Lesson mode as a learner meets it: open a preset, answer the predict questions, step forward and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, screenshot, setSpeed } from './harness.mjs';

useServerAndBrowser();

test('a preset lesson: predict before the reveal, then step forward and back through the narration', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  const panel = page.getByRole('region', { name: 'Lessons' });
  await panel.getByLabel('Lesson').selectOption({ label: '1. The first consumer joins an empty group' });
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  const progress = panel.getByTestId('lesson-step');
  assert.equal(await progress.textContent(), 'Step 1 of 11');

  // The question comes first; the narration and Next wait for the answer.
  await panel.getByText('Which partition of __consumer_offsets holds test_group_1?').first().waitFor();
  assert.equal(await panel.getByRole('heading', { name: 'Finding the coordinator' }).count(), 0);
  assert.ok(await panel.getByRole('button', { name: 'Next' }).isDisabled());
  await panel.getByRole('button', { name: "28 (the article's figure)" }).click();
  await panel.getByRole('status').filter({ hasText: 'Not quite: the answer is 30.' }).waitFor();
  await panel.getByRole('heading', { name: 'Finding the coordinator' }).waitFor();

  for (let n = 2; n <= 6; n++) {
    await panel.getByRole('button', { name: 'Next' }).click();
    assert.equal(await progress.textContent(), `Step ${n} of 11`);
  }
  await panel.getByRole('heading', { name: 'The delay is extended' }).waitFor();
  const clockAt6 = await page.getByTestId('clock').getAttribute('data-ms');
  assert.equal(await page.getByTestId('generation').textContent(), '0');

  await panel.getByRole('button', { name: 'Next' }).click();
  assert.equal(await progress.textContent(), 'Step 7 of 11');
  await panel.getByText("After the group's first rebalance, what is the generation?").first().waitFor();
  // Before the answer, the simulation still shows the previous step.
  assert.equal(await page.getByTestId('generation').textContent(), '0');
  await panel.getByRole('button', { name: '1', exact: true }).click();
  await panel.getByRole('status').filter({ hasText: /^Correct\./ }).waitFor();
  await panel.getByRole('heading', { name: 'The join phase completes: generation 1' }).waitFor();
  assert.equal(await page.getByTestId('generation').textContent(), '1');
  const clockAt7 = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  assert.ok(clockAt7 > Number(clockAt6), `${clockAt7} > ${clockAt6}`);
  await screenshot(page, 'lesson-step-7');

  await panel.getByRole('button', { name: 'Back' }).click();
  assert.equal(await progress.textContent(), 'Step 6 of 11');
  await panel.getByRole('heading', { name: 'The delay is extended' }).waitFor();
  assert.equal(await page.getByTestId('clock').getAttribute('data-ms'), clockAt6);
  assert.equal(await page.getByTestId('generation').textContent(), '0');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lesson whose files cannot be downloaded shows why, and the session stays as it was', async () => {
  // Without the service worker, which would serve the lesson from its cache.
  const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  // The lesson files are fetched on opening: make one of them fail.
  await page.route('**/lessons/04-crash.lesson.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByRole('button', { name: 'Add consumer' }).click();
  await page.getByRole('button', { name: 'Add consumer' }).click();
  const consumers = await page.locator('.consumer-card').count();
  const panel = page.getByRole('region', { name: 'Lessons' });
  await panel.getByLabel('Lesson').selectOption({ label: '4. A member crashes' });
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  const alert = panel.getByRole('alert');
  await alert.waitFor();
  const text = await alert.textContent();
  assert.match(text, /Could not open “A member crashes”/);
  assert.match(text, /04-crash\.lesson\.json: HTTP 404/);
  assert.equal(await panel.getByTestId('lesson-step').count(), 0);
  assert.equal(await page.locator('.consumer-card').count(), consumers);
  assert.ok(consumers >= 2);
  // The others still open.
  await page.unroute('**/lessons/04-crash.lesson.json');
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  await panel.getByTestId('lesson-step').waitFor();
  assert.equal(await panel.getByRole('alert').count(), 0);
  assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  await context.close();
});

test('a lesson owns the timeline: Play stops at the end of the step, Reset and Close end the lesson, the last step sums up', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  const panel = page.getByRole('region', { name: 'Lessons' });
  const toolbar = page.getByRole('toolbar');
  const progress = panel.getByTestId('lesson-step');
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  // The title has the focus (not the body).
  await page.waitForFunction(() => document.activeElement?.classList.contains('lesson-title'));
  // While the question waits, Play does not run time on.
  const clock = () => page.getByTestId('clock').getAttribute('data-ms');
  const before = await clock();
  await toolbar.getByRole('button', { name: 'Play' }).click();
  await panel.getByRole('status').filter({ hasText: 'Answer the question first' }).waitFor();
  assert.equal(await clock(), before);
  await panel.getByRole('button', { name: '30' }).click();
  await panel.getByRole('heading', { name: 'Finding the coordinator' }).waitFor();
  // Play runs to the end of step 1 (the event of step 2) and stops there, still on step 1.
  await setSpeed(page, 10);
  await toolbar.getByRole('button', { name: 'Play' }).click();
  await panel.getByRole('status').filter({ hasText: 'End of this step' }).waitFor();
  await toolbar.getByRole('button', { name: 'Play', pressed: false }).waitFor();
  assert.equal(await progress.textContent(), 'Step 1 of 11');
  const end = await clock();
  assert.equal(await page.getByTestId('generation').textContent(), '0');
  await panel.getByRole('button', { name: 'Next' }).click();
  assert.equal(await progress.textContent(), 'Step 2 of 11');
  assert.equal(await clock(), end, 'step 2 shows where Play stopped');
  // Step (the toolbar's) stops there too.
  for (let i = 0; i < 200 && (await panel.getByRole('status').filter({ hasText: 'End of this step' }).count()) === 0; i++) {
    await toolbar.getByRole('button', { name: 'Step' }).click();
  }
  assert.equal(await progress.textContent(), 'Step 2 of 11');
  // Reset ends the lesson.
  await toolbar.getByRole('button', { name: 'Reset' }).click();
  await progress.waitFor({ state: 'detached' });

  // To the last step: answer every question with its first choice.
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  await progress.waitFor();
  for (let n = 1; n < 11; n++) {
    const next = panel.getByRole('button', { name: 'Next' });
    if (await next.isDisabled()) await panel.locator('.lesson-choices button').first().click();
    await next.click();
    await progress.filter({ hasText: `Step ${n + 1} of 11` }).waitFor();
  }
  if (await panel.locator('.lesson-choices button:not([disabled])').count()) {
    await panel.locator('.lesson-choices button').first().click();
  }
  const summary = panel.getByTestId('lesson-summary');
  await summary.getByRole('heading', { name: 'Summary' }).waitFor();
  await summary.getByRole('heading', { name: 'Kafka settings in this lesson' }).waitFor();
  for (const setting of ['session.timeout.ms', 'heartbeat.interval.ms', 'group.initial.rebalance.delay.ms']) {
    await summary.getByText(setting, { exact: true }).waitFor();
  }
  await screenshot(page, 'lesson-summary');
  // The close button ends the lesson; the focus goes to the lesson picker.
  await panel.getByRole('button', { name: 'Close lesson' }).click();
  await progress.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.tagName === 'SELECT');
  assert.deepEqual(errors, []);
  await context.close();
});

test('acting on the world during a lesson ends the lesson and keeps the world', async () => {
  const { context, page, errors } = await openPage(browser, server.url);
  const panel = page.getByRole('region', { name: 'Lessons' });
  await panel.getByRole('button', { name: 'Open lesson' }).click();
  await panel.getByRole('button', { name: '30' }).click();
  await panel.getByRole('heading', { name: 'Finding the coordinator' }).waitFor();
  const clock = await page.getByTestId('clock').getAttribute('data-ms');
  const cards = await page.getByRole('article').count();
  await page.getByRole('button', { name: 'Add consumer' }).click();
  await panel.getByTestId('lesson-step').waitFor({ state: 'detached' });
  // The lesson's world goes on from where it was (the engine places the action in the next
  // instant), with the consumer added to it.
  const after = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  assert.ok(after >= Number(clock) && after < Number(clock) + 1000, `${clock} -> ${after}`);
  await page.getByRole('article').nth(cards).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
