// Shared helpers of the browser suite: launching Debian's chromium through
// playwright-core, running difffold, reading frames out of the SVG DOM and
// decoding PNG screenshots (node's zlib only, no image library).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const HERE = path.dirname(fileURLToPath(import.meta.url));

// The suite never downloads a browser: it drives the system's chromium.
export const CHROMIUM = process.env.DIFFFOLD_CHROMIUM || '/usr/bin/chromium';

export class SetupError extends Error {}

// Loads playwright-core, or explains how to install it (a missing
// dependency must fail the suite, never skip it).
export async function loadPlaywright() {
	if (!fs.existsSync(CHROMIUM)) {
		throw new SetupError(
			`browser suite: chromium not found at ${CHROMIUM} ` +
				'(install it: apt-get install chromium, or set DIFFFOLD_CHROMIUM)'
		);
	}
	try {
		const pw = await import('playwright-core');
		return pw.chromium;
	} catch (e) {
		throw new SetupError(
			'browser suite: playwright-core is not installed ' +
				`(run: npm ci --prefix tests/browser): ${e.message}`
		);
	}
}

// A headless chromium with a fresh profile directory, no network chatter.
export async function launch() {
	const chromium = await loadPlaywright();
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'difffold-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1280, height: 800 },
		deviceScaleFactor: 1,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--font-render-hinting=none',
		],
	});
	const close = async () => {
		await context.close();
		fs.rmSync(profile, { recursive: true, force: true });
	};
	return { context, close };
}

// Runs difffold; throws with its stderr when it fails.
export function difffold(exe, args) {
	const r = spawnSync(exe, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
	if (r.error) {
		throw new Error(`cannot run ${exe}: ${r.error.message}`);
	}
	if (r.status !== 0) {
		throw new Error(`${exe} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
	}
	return r;
}

// The sample pair: the repository's samples/ when present, else ours.
export function samplePair(root) {
	const base = path.join(root, 'samples', 'base.folded');
	const head = path.join(root, 'samples', 'head.folded');
	if (fs.existsSync(base) && fs.existsSync(head)) {
		return { base, head };
	}
	return {
		base: path.join(HERE, 'sample-base.folded'),
		head: path.join(HERE, 'sample-head.folded'),
	};
}

// Collects everything a page reports that a clean graph must never cause.
export function watch(page) {
	const w = { dialogs: [], errors: [], expectDialog: null, tolerateAlerts: false };
	page.on('dialog', async (d) => {
		if (w.expectDialog) {
			const answer = w.expectDialog;
			w.expectDialog = null;
			w.dialogs.push({ type: d.type(), message: d.message(), expected: true });
			await d.accept(answer(d));
			return;
		}
		if (w.tolerateAlerts && d.type() === 'alert') {
			w.dialogs.push({ type: d.type(), message: d.message(), expected: true });
			await d.accept();
			return;
		}
		w.dialogs.push({ type: d.type(), message: d.message(), expected: false });
		await d.dismiss().catch(() => {});
	});
	page.on('pageerror', (e) => w.errors.push(`pageerror: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error') {
			w.errors.push(`console.error: ${m.text()}`);
		}
	});
	w.unexpected = () => w.dialogs.filter((d) => !d.expected);
	return w;
}

// Reads the frames in document order: name (first title line), counts,
// status, and the rect's geometry both as attributes and as rendered.
// `outside` says the rendered rect lies beyond the graph area of its svg
// (data-graph-x/-width), where a zoom moves the frames it does not show
// (the script leaves at most 0.05 px of a frame across the clipped edge).
export function readFrames(page) {
	return page.evaluate(() => {
		const out = [];
		const gs = document.querySelectorAll('g.frame');
		const areas = new Map();
		const areaOf = (svg) => {
			if (!areas.has(svg)) {
				const m = svg.getScreenCTM();
				const gx = Number(svg.getAttribute('data-graph-x'));
				const gw = Number(svg.getAttribute('data-graph-width'));
				areas.set(svg, { left: m.e + m.a * gx, right: m.e + m.a * (gx + gw) });
			}
			return areas.get(svg);
		};
		for (let i = 0; i < gs.length; i++) {
			const g = gs[i];
			const area = areaOf(g.closest('svg'));
			const title = g.querySelector('title');
			const rect = g.querySelector('rect');
			const text = g.querySelector('text');
			const full = title ? title.textContent : '';
			const nl = full.indexOf('\n');
			const r = rect ? rect.getBoundingClientRect() : null;
			const cs = rect ? getComputedStyle(rect) : null;
			out.push({
				index: i,
				name: nl < 0 ? full : full.slice(0, nl),
				title: full,
				status: g.getAttribute('data-status'),
				base: Number(g.getAttribute('data-base')),
				head: Number(g.getAttribute('data-head')),
				baseSelf: Number(g.getAttribute('data-base-self')),
				headSelf: Number(g.getAttribute('data-head-self')),
				childOrder: Array.from(g.children).map((c) => c.localName),
				cls: g.getAttribute('class'),
				ax: rect ? Number(rect.getAttribute('x')) : NaN,
				ay: rect ? Number(rect.getAttribute('y')) : NaN,
				aw: rect ? Number(rect.getAttribute('width')) : NaN,
				ah: rect ? Number(rect.getAttribute('height')) : NaN,
				x: r ? r.left + window.scrollX : NaN,
				y: r ? r.top + window.scrollY : NaN,
				w: r ? r.width : NaN,
				h: r ? r.height : NaN,
				outside: r ? r.right <= area.left + 0.06 || r.left >= area.right - 0.06 : true,
				display: cs ? cs.display : '',
				gDisplay: getComputedStyle(g).display,
				fill: cs ? cs.fill : '',
				label: text ? text.textContent : '',
			});
		}
		return out;
	});
}

// Depth and parent of every frame, from the row geometry and the
// pre-order of the markup (a parent is the last frame one row closer to
// the root).
export function buildTree(frames) {
	const rootY = frames[0].ay;
	let step = Infinity;
	for (const f of frames) {
		const d = Math.abs(f.ay - rootY);
		if (d > 0.5 && d < step) {
			step = d;
		}
	}
	const last = [];
	for (const f of frames) {
		const d = Math.round(Math.abs(f.ay - rootY) / step);
		// A frame without a readable rect is left at the root's row; the
		// markup check reports it.
		f.depth = Number.isFinite(d) ? d : 0;
		f.parent = f.depth > 0 ? last[f.depth - 1] : -1;
		f.children = [];
		last[f.depth] = f.index;
		last.length = f.depth + 1;
		if (f.parent >= 0) {
			frames[f.parent].children.push(f.index);
		}
	}
	return frames;
}

export function ancestors(frames, i) {
	const a = [];
	for (let p = frames[i].parent; p >= 0; p = frames[p].parent) {
		a.push(p);
	}
	return a;
}

export function descendants(frames, i) {
	const d = [];
	for (let j = i + 1; j < frames.length && frames[j].depth > frames[i].depth; j++) {
		d.push(j);
	}
	return d;
}

// "rgb(r, g, b)" or "#rrggbb" / "#rgb" to [r, g, b]; null for anything else.
export function parseColor(s) {
	if (!s) {
		return null;
	}
	let m = /^rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)/.exec(s);
	if (m) {
		return [Number(m[1]), Number(m[2]), Number(m[3])];
	}
	m = /^#([0-9a-f]{6})$/i.exec(s);
	if (m) {
		const v = parseInt(m[1], 16);
		return [v >> 16, (v >> 8) & 255, v & 255];
	}
	m = /^#([0-9a-f]{3})$/i.exec(s);
	if (m) {
		return [...m[1]].map((c) => parseInt(c + c, 16));
	}
	return null;
}

// Minimal PNG decoder: 8-bit greyscale, RGB, grey+alpha or RGBA,
// non-interlaced, which is what chromium's screenshots are.
export function decodePNG(buf) {
	const sig = [137, 80, 78, 71, 13, 10, 26, 10];
	for (let i = 0; i < 8; i++) {
		if (buf[i] !== sig[i]) {
			throw new Error('not a PNG');
		}
	}
	let off = 8;
	let width = 0;
	let height = 0;
	let depth = 0;
	let ctype = 0;
	let interlace = 0;
	const idat = [];
	while (off + 8 <= buf.length) {
		const len = buf.readUInt32BE(off);
		const type = buf.toString('latin1', off + 4, off + 8);
		const data = buf.subarray(off + 8, off + 8 + len);
		off += 12 + len;
		if (type === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			depth = data[8];
			ctype = data[9];
			interlace = data[12];
		} else if (type === 'IDAT') {
			idat.push(data);
		} else if (type === 'IEND') {
			break;
		}
	}
	const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[ctype];
	if (depth !== 8 || !channels || interlace !== 0) {
		throw new Error(`unsupported PNG: depth ${depth} colour type ${ctype} interlace ${interlace}`);
	}
	const raw = zlib.inflateSync(Buffer.concat(idat));
	const stride = width * channels;
	const px = Buffer.alloc(stride * height);
	for (let y = 0; y < height; y++) {
		const filter = raw[y * (stride + 1)];
		const src = y * (stride + 1) + 1;
		const dst = y * stride;
		for (let x = 0; x < stride; x++) {
			const a = x >= channels ? px[dst + x - channels] : 0;
			const b = y > 0 ? px[dst - stride + x] : 0;
			const c = x >= channels && y > 0 ? px[dst - stride + x - channels] : 0;
			let v = raw[src + x];
			switch (filter) {
			case 0:
				break;
			case 1:
				v += a;
				break;
			case 2:
				v += b;
				break;
			case 3:
				v += (a + b) >> 1;
				break;
			case 4: {
				const p = a + b - c;
				const pa = Math.abs(p - a);
				const pb = Math.abs(p - b);
				const pc = Math.abs(p - c);
				v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
				break;
			}
			default:
				throw new Error(`bad PNG filter ${filter} on row ${y}`);
			}
			px[dst + x] = v & 255;
		}
	}
	return {
		width,
		height,
		// [r, g, b] of a pixel, alpha ignored (screenshots are opaque).
		at(x, y) {
			const i = (Math.round(y) * width + Math.round(x)) * channels;
			return channels >= 3 ? [px[i], px[i + 1], px[i + 2]] : [px[i], px[i], px[i]];
		},
	};
}

export function colorDistance(a, b) {
	return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

// A plain runner: named checks, a summary line the CI recognises.
export function runner() {
	const results = [];
	return {
		async check(name, fn) {
			const start = Date.now();
			try {
				await fn();
				results.push({ name, ok: true });
				console.log(`ok - ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
			} catch (e) {
				results.push({ name, ok: false });
				console.log(`not ok - ${name}\n  ${String(e && e.stack ? e.stack : e).replace(/\n/g, '\n  ')}`);
			}
		},
		summary() {
			const passed = results.filter((r) => r.ok).length;
			const failed = results.length - passed;
			console.log(`${passed} passed, ${failed} failed`);
			return failed;
		},
	};
}
