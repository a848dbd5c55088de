#!/usr/bin/env node
// Regenerates the README's screenshots from difffold's own output on the
// bundled sample pair: docs/screenshot-svg.png (the interactive document,
// pointer over the frame that changed most) and docs/screenshot-img.png
// (the same file as a plain <img>, as a pull-request comment shows it).
//
// Usage: node tests/browser/screenshots.mjs DIFFFOLD [SOURCE_ROOT]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { HERE, buildTree, difffold, launch, readFrames, samplePair } from './lib.mjs';

const exe = process.argv[2];
const root = process.argv[3] || path.resolve(HERE, '..', '..');
if (!exe) {
	console.error('usage: node screenshots.mjs DIFFFOLD [SOURCE_ROOT]');
	process.exit(2);
}
const docs = path.join(root, 'docs');
fs.mkdirSync(docs, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'difffold-shots-'));
const svg = path.join(tmp, 'diff.svg');
const pair = samplePair(root);
difffold(exe, [pair.base, pair.head, '-o', svg]);
const size = (() => {
	const head = fs.readFileSync(svg, 'utf8').slice(0, 4000);
	const w = /<svg\b[^>]*?\swidth="([\d.]+)"/.exec(head);
	const h = /<svg\b[^>]*?\sheight="([\d.]+)"/.exec(head);
	return { width: Math.ceil(Number(w[1])), height: Math.ceil(Number(h[1])) };
})();

const { context, close } = await launch();
try {
	const page = await context.newPage();
	await page.setViewportSize(size);
	await page.goto(pathToFileURL(svg).href, { waitUntil: 'load' });
	const frames = buildTree(await readFrames(page));
	// The frame whose own time grew most (the regression a reader looks
	// for), wide enough to point at.
	const target = frames
		.filter((f) => f.depth > 0 && f.aw >= 40)
		.sort((a, b) => b.headSelf - b.baseSelf - (a.headSelf - a.baseSelf))[0];
	const p = await page.evaluate((i) => {
		const r = document.querySelectorAll('g.frame > rect')[i].getBoundingClientRect();
		return { x: r.left + Math.min(r.width / 2, 60), y: r.top + r.height / 2 };
	}, target.index);
	await page.mouse.move(p.x, p.y);
	await page.waitForFunction(() => document.querySelector('.details').textContent !== '');
	const svgShot = path.join(docs, 'screenshot-svg.png');
	await page.screenshot({ path: svgShot, clip: { x: 0, y: 0, ...size } });
	await page.close();

	const html = path.join(tmp, 'img.html');
	fs.writeFileSync(
		html,
		'<!doctype html><html><head><meta charset="utf-8"></head>' +
			'<body style="margin:0;background:#fff"><img src="diff.svg" style="display:block"></body></html>'
	);
	const page2 = await context.newPage();
	await page2.setViewportSize(size);
	await page2.goto(pathToFileURL(html).href, { waitUntil: 'load' });
	const imgShot = path.join(docs, 'screenshot-img.png');
	await page2.screenshot({ path: imgShot, clip: { x: 0, y: 0, ...size } });
	await page2.close();
	for (const f of [svgShot, imgShot]) {
		console.log(`${path.relative(root, f)}: ${size.width}x${size.height}, ${fs.statSync(f).size} bytes`);
	}
	console.log(`hovered: ${target.name}`);
} finally {
	await close();
	fs.rmSync(tmp, { recursive: true, force: true });
}
