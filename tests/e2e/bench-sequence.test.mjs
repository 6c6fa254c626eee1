// The frame-budget benchmark with the sequence diagram open (bench-sequence.mjs) still runs and
// reports: a short run of it, checked for what it measured (not for how fast: figures are read from
// the benchmark itself, on a quiet machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, median } from './harness.mjs';
import { sequenceFrames } from './bench-sequence.mjs';

useServerAndBrowser();

test('the sequence-diagram frame benchmark runs with 30 consumers and reports its frames', async () => {
  const f = await sequenceFrames(browser, server.url, { consumers: 30, framesMs: 2_000 });
  assert.deepEqual(f.errors, []);
  assert.ok(f.gaps.length > 10, `frames were measured: ${f.gaps.length}`);
  assert.ok(f.gaps.every((g) => Number.isFinite(g) && g >= 0));
  assert.ok(Number.isFinite(median(f.gaps)) && Math.max(...f.gaps) >= median(f.gaps));
  assert.ok(f.messages > 0, 'the diagram was open and drew messages');
  assert.ok(f.virtual > 0, 'virtual time ran while measuring');
  assert.equal(f.speed, '4×');
  assert.ok(f.redraws > 0, 'the diagram followed the time');
});
