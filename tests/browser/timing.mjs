#!/usr/bin/env node
// Browser timing of difffold's SVG for a pair of profiles: load to first
// paint, and the time a zoom click, a reset and a search take to reach the
// screen. Prints figures; asserts nothing (times depend on the machine).
//
// Usage: node tests/browser/timing.mjs DIFFFOLD BASE HEAD [RUNS]
// e.g. for the generated 10 MB pair:
//   python3 bench/gen-pair.py --size-mb 10 --seed 1 --out-base /tmp/b10 --out-head /tmp/h10
//   node tests/browser/timing.mjs build/src/difffold /tmp/b10 /tmp/h10
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

import { buildTree, descendants, difffold, launch, readFrames } from './lib.mjs';

const [exe, base, head, runsArg] = process.argv.slice(2);
if (!exe || !base || !head) {
	console.error('usage: node timing.mjs DIFFFOLD BASE HEAD [RUNS]');
	process.exit(2);
}
const runs = Number(runsArg) || 5;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'difffold-timing-'));
const svg = path.join(tmp, 'diff.svg');

const t0 = performance.now();
difffold(exe, [base, head, '-o', svg]);
const genMs = performance.now() - t0;
const bytes = fs.statSync(svg).size;

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
};
// A browser may not report a figure (no paint entry): say so, do not crash.
const ms = (v) => (v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);

// Runs `action` in the page and resolves once the frame it caused has been
// painted (two animation frames later).
const inPage = (page, action, arg) =>
	page.evaluate(
		([src, a]) =>
			new Promise((resolve) => {
				const fn = new Function('a', src);
				const start = performance.now();
				fn(a);
				const handler = performance.now() - start;
				requestAnimationFrame(() =>
					requestAnimationFrame(() => resolve({ handler, painted: performance.now() - start }))
				);
			}),
		[action, arg]
	);

const { context, close } = await launch();
try {
	const loads = [];
	let frames = null;
	let page = null;
	for (let r = 0; r < runs; r++) {
		page = await context.newPage();
		await page.setViewportSize({ width: 1280, height: 900 });
		const w0 = performance.now();
		await page.goto(pathToFileURL(svg).href, { waitUntil: 'load' });
		const wall = performance.now() - w0;
		// Paint entries of a big document are recorded after its load event:
		// read them once two more frames have been painted.
		const nav = await page.evaluate(async () => {
			await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
			const n = performance.getEntriesByType('navigation')[0];
			const p = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
			return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, fp: p['first-paint'], fcp: p['first-contentful-paint'] };
		});
		loads.push({ wall, ...nav });
		if (r < runs - 1) {
			await page.close();
		}
	}
	frames = buildTree(await readFrames(page));
	// Zoom into the frame with the most descendants that is not nearly the
	// whole graph: a click that rescales and relabels the most frames.
	const rootW = frames[0].aw;
	const target = frames
		.filter((f) => f.depth > 0 && f.aw < rootW * 0.9)
		.map((f) => ({ f, n: descendants(frames, f.index).length }))
		.sort((a, b) => b.n - a.n)[0].f;
	const targetDesc = descendants(frames, target.index).length;
	const clickSrc = "document.querySelectorAll('g.frame > rect')[a].dispatchEvent(new MouseEvent('click', {bubbles: true}))";
	const zooms = [];
	const resets = [];
	const searches = [];
	for (let r = 0; r < runs; r++) {
		zooms.push(await inPage(page, clickSrc, target.index));
		resets.push(await inPage(page, "document.querySelector('.reset-zoom').dispatchEvent(new MouseEvent('click', {bubbles: true}))", 0));
		searches.push(await inPage(page, 'window.difffold.search(a, false)', '^(?:std|core)::'));
		await page.evaluate(() => window.difffold.clearSearch());
	}
	const pick = (xs, k) => median(xs.map((x) => x[k]).filter((v) => v !== undefined));
	console.log(`svg: ${bytes} bytes, ${frames.length} frames (${(bytes / frames.length).toFixed(0)} bytes/frame), written in ${ms(genMs)}`);
	console.log(`load (median of ${runs}): first paint ${ms(pick(loads, 'fp'))}, first contentful paint ${ms(pick(loads, 'fcp'))}, DOMContentLoaded ${ms(pick(loads, 'dcl'))}, load event ${ms(pick(loads, 'load'))}, goto wall ${ms(pick(loads, 'wall'))}`);
	console.log(`zoom click on frame ${target.index} (${targetDesc} descendants of ${frames.length} frames): handler ${ms(pick(zooms, 'handler'))}, to paint ${ms(pick(zooms, 'painted'))}`);
	console.log(`reset zoom: handler ${ms(pick(resets, 'handler'))}, to paint ${ms(pick(resets, 'painted'))}`);
	console.log(`search /^(?:std|core)::/i: handler ${ms(pick(searches, 'handler'))}, to paint ${ms(pick(searches, 'painted'))}`);
} finally {
	await close();
	fs.rmSync(tmp, { recursive: true, force: true });
}
