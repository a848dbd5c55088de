#!/usr/bin/env node
// The browser suite: difffold's interactive SVG driven in Debian's headless
// chromium (hover, zoom, reset, search, URL state), the same file as an
// <img> (a picture that needs no script), and a sample of hostile frame
// names that must never run or open anything.
//
// Usage: node tests/browser/run.mjs DIFFFOLD [SOURCE_ROOT]
// Prints one line per check and 'N passed, N failed'; exits 1 on failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
	HERE,
	SetupError,
	ancestors,
	buildTree,
	colorDistance,
	decodePNG,
	descendants,
	difffold,
	launch,
	parseColor,
	readFrames,
	runner,
	samplePair,
	watch,
} from './lib.mjs';
import { picviewChecks } from './picview.mjs';

const exe = process.argv[2];
const root = process.argv[3] || path.resolve(HERE, '..', '..');
if (!exe) {
	console.error('usage: node run.mjs DIFFFOLD [SOURCE_ROOT]');
	process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'difffold-browser-'));
const t = runner();

function assert(cond, msg) {
	if (!cond) {
		throw new Error(msg);
	}
}

function near(a, b, tol) {
	return Math.abs(a - b) <= tol;
}

// Digits grouped with ',', ' ', thin or narrow spaces read as one number.
function ungroup(s) {
	return s.replace(/(\d)[,\u00a0\u2009\u202f ](?=\d{3}\b)/g, '$1');
}

function containsNumber(text, n) {
	const re = new RegExp(`(^|[^\\d.])${String(n).replace('.', '\\.')}($|[^\\d])`);
	return re.test(ungroup(text));
}

function escapeRegex(s) {
	return s.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
}

function poll(page, fn, arg, what, timeout = 10000) {
	return page.waitForFunction(fn, arg, { timeout, polling: 20 }).catch((e) => {
		throw new Error(`timed out waiting for ${what}: ${e.message.split('\n')[0]}`);
	});
}

// Everything about the root <svg> and the interactive elements.
function readChrome(page) {
	return page.evaluate(() => {
		const svg = document.documentElement;
		const shown = (el) => {
			if (!el) {
				return false;
			}
			const cs = getComputedStyle(el);
			const r = el.getBoundingClientRect();
			return cs.display !== 'none' && cs.visibility !== 'hidden' && cs.opacity !== '0' && r.width > 0;
		};
		const one = (cls) => {
			const all = document.getElementsByClassName(cls);
			const el = all[0];
			return el
				? { count: all.length, text: el.textContent, shown: shown(el), tag: el.localName }
				: { count: 0, text: '', shown: false, tag: '' };
		};
		return {
			tag: svg.localName,
			cls: svg.getAttribute('class') || '',
			prefix: svg.getAttribute('data-prefix'),
			width: Number(svg.getAttribute('width')),
			height: Number(svg.getAttribute('height')),
			viewBox: svg.getAttribute('viewBox'),
			background: (svg.querySelector('rect.background') || svg).getAttribute('fill'),
			ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
			details: one('details'),
			reset: one('reset-zoom'),
			searchButton: one('search-button'),
			matched: one('matched'),
			caseToggle: one('case-toggle'),
			hash: location.hash,
		};
	});
}

async function centerOf(page, selector, index = 0) {
	return page.evaluate(
		([sel, i]) => {
			const el = document.querySelectorAll(sel)[i];
			el.scrollIntoView({ block: 'center', inline: 'nearest' });
			const r = el.getBoundingClientRect();
			return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
		},
		[selector, index]
	);
}

// A real pointer: move to / click the middle of frame i's rect.
async function hoverFrame(page, i) {
	const p = await centerOf(page, 'g.frame > rect', i);
	await page.mouse.move(p.x, p.y);
}

async function clickFrame(page, i) {
	const p = await centerOf(page, 'g.frame > rect', i);
	await page.mouse.click(p.x, p.y);
}

async function clickClass(page, cls) {
	const p = await centerOf(page, `.${cls}`);
	await page.mouse.click(p.x, p.y);
}

function parseHash(hash, prefix) {
	const out = {};
	if (!hash.startsWith('#' + prefix)) {
		return null;
	}
	for (const kv of hash.slice(1 + prefix.length).split('&')) {
		const eq = kv.indexOf('=');
		if (eq > 0) {
			out[kv.slice(0, eq)] = kv.slice(eq + 1);
		}
	}
	return out;
}

async function openDoc(context, url, size) {
	const page = await context.newPage();
	const w = watch(page);
	if (size) {
		await page.setViewportSize(size);
	}
	await page.goto(url, { waitUntil: 'load' });
	return { page, w };
}

// Frames that match `re` (on the name, as the title's first line), and the
// share of the head total they hold, each sample counted once.
function expectedSearch(frames, re) {
	const hit = new Set();
	for (const f of frames) {
		if (re.test(f.name)) {
			hit.add(f.index);
		}
	}
	let sum = 0;
	for (const i of hit) {
		if (!ancestors(frames, i).some((a) => hit.has(a))) {
			sum += frames[i].head;
		}
	}
	return { hit, percent: frames[0].head > 0 ? (sum / frames[0].head) * 100 : 0 };
}

function classes(f) {
	return (f.cls || '').split(/\s+/);
}

// A frame a zoom does not show: class hide and not displayed, or moved
// beyond the graph area (which the script clips; the pixel check of the
// zoom test sees that nothing is drawn there).
function offGraph(f) {
	return (classes(f).includes('hide') && f.gDisplay === 'none') || f.outside || f.w === 0;
}

function sameSet(got, want, what) {
	const g = [...got].sort((a, b) => a - b);
	const w = [...want].sort((a, b) => a - b);
	assert(
		g.length === w.length && g.every((v, k) => v === w[k]),
		`${what}: got frames [${g}], expected [${w}]`
	);
}

function checkMatched(chrome, percent) {
	assert(chrome.matched.shown, "'Matched' figure not shown after a search");
	// Zoomed, the whole's share follows the zoomed frame's: "..., N% of all".
	const m = /([\d.]+)% of all$/.exec(chrome.matched.text) || /Matched:\s*([\d.]+)\s*%/.exec(chrome.matched.text);
	assert(m, `'Matched' text is '${chrome.matched.text}'`);
	// One decimal, any rounding mode of the last digit.
	assert(
		Math.abs(Number(m[1]) - percent) <= 0.05 + 1e-9,
		`Matched: ${m[1]}% but the frames' data-head give ${percent.toFixed(3)}%`
	);
}

async function searchState(page) {
	return page.evaluate(() => window.difffold.state());
}

// The prompt of a search that came with a link: shown, naming the pattern;
// a click runs it.
async function linkPrompt(page) {
	return page.evaluate(() => {
		const el = document.querySelector('.link-search');
		if (!el) {
			return null;
		}
		const r = el.getBoundingClientRect();
		return { text: el.textContent, shown: getComputedStyle(el).display !== 'none' && r.width > 0 };
	});
}

async function runLinkSearch(page, re) {
	const st = await searchState(page);
	assert(st.search === null && st.linkSearch === re, `link search ${JSON.stringify(re)} not pending: ${JSON.stringify(st)}`);
	const p = await linkPrompt(page);
	assert(p && p.shown, `no visible link-search prompt: ${JSON.stringify(p)}`);
	assert(p.text.includes(re.length > 40 ? re.slice(0, 39) : re), `prompt '${p.text}' does not name ${JSON.stringify(re)}`);
	await clickClass(page, 'link-search');
	await poll(page, (r) => window.difffold.state().search === r, re, 'the link search after a click');
	const after = await linkPrompt(page);
	assert(!after.shown, 'the link-search prompt stays after running');
}

// The frame the pointer and zoom checks use: deep enough to have siblings,
// wide enough to aim at, ideally with children to watch scale.
function pickZoomFrame(frames, rootW) {
	let best = null;
	for (const f of frames) {
		if (f.depth < 2 || f.aw < 20 || f.aw > rootW * 0.8) {
			continue;
		}
		if (frames[f.parent].children.length < 2) {
			continue;
		}
		const score = (f.children.length > 0 ? 1e6 : 0) + f.aw;
		if (!best || score > best.score) {
			best = { f, score };
		}
	}
	return best && best.f;
}

// Reads the frames while frame i is zoomed and checks what the zoom
// contract says: i spans the graph, its ancestors stay at full width, its
// descendants keep their share of it (from their counts, so deep zooms are
// held to the exact widths), every other frame is off the graph, and the
// screenshot shows the zoomed frames' fills and nothing beside the graph.
async function checkZoomed(page, initial, i, background) {
	const root0 = initial[0];
	const rootW = root0.w;
	const now = buildTree(await readFrames(page));
	const z = now[i];
	assert(near(z.w, rootW, 1) && near(z.x, root0.x, 1), `zoomed frame spans x=${z.x} w=${z.w}, root x=${root0.x} w=${rootW}`);
	const anc = new Set(ancestors(initial, i));
	const desc = new Set(descendants(initial, i));
	for (const a of anc) {
		assert(!classes(now[a]).includes('hide') && near(now[a].w, rootW, 1), `ancestor ${a} (${now[a].name}) not kept at full width (w=${now[a].w})`);
	}
	const widths = await page.evaluate(() => document.querySelector('svg.difffold').getAttribute('data-widths'));
	const basis = (f) => (widths === 'base' ? f.base : widths === 'union' ? f.base + f.head : f.head);
	for (const d of desc) {
		if (initial[d].gDisplay === 'none') {
			continue; // not in the written view: it stays hidden on zoom
		}
		const want = (basis(initial[d]) / basis(initial[i])) * rootW;
		assert(now[d].gDisplay !== 'none' && near(now[d].w, want, 0.5 + want * 0.001), `descendant ${d} (${now[d].name}) w=${now[d].w}, expected ${want.toFixed(2)}`);
		assert(now[d].x >= z.x - 0.5 && now[d].x + now[d].w <= z.x + z.w + 0.5, `descendant ${d} (${now[d].name}) at x=${now[d].x} w=${now[d].w} leaves the zoomed frame`);
	}
	for (const f of now) {
		if (f.index === i || anc.has(f.index) || desc.has(f.index)) {
			continue;
		}
		assert(offGraph(f), `frame ${f.index} (${f.name}) outside the zoomed subtree is still on the graph (x=${f.x} w=${f.w}, class '${f.cls}')`);
	}
	const vp = page.viewportSize();
	const png = decodePNG(await page.screenshot({ clip: { x: 0, y: 0, width: vp.width, height: vp.height } }));
	const scroll = await page.evaluate(() => [scrollX, scrollY]);
	const at = (x, y) => png.at(x - scroll[0], y - scroll[1]);
	const bg = parseColor(background) || [255, 255, 255];
	for (const j of [i, ...anc, ...desc]) {
		const f = now[j];
		if (f.w < 8 || f.h < 4 || f.y - scroll[1] < 0 || f.y + f.h - scroll[1] > vp.height) {
			continue;
		}
		const want = parseColor(f.fill);
		const got = at(f.x + f.w - 2.5, f.y + f.h / 2);
		assert(colorDistance(got, want) <= 6, `zoomed frame ${j} (${f.name}) pixel rgb(${got}) at its right end, fill rgb(${want})`);
	}
	const rows = [...new Set(now.filter((f) => !offGraph(f)).map((f) => Math.round(f.y + f.h / 2)))];
	for (const y of rows.filter((r) => r - scroll[1] >= 0 && r - scroll[1] < vp.height)) {
		for (const x of [root0.x - 4, root0.x + rootW + 4]) {
			const got = at(x, y);
			assert(colorDistance(got, bg) <= 6, `pixel rgb(${got}) at ${x.toFixed(0)},${y} beside the graph, background rgb(${bg})`);
		}
	}
	return now;
}

async function main() {
	let browser;
	try {
		browser = await launch();
	} catch (e) {
		if (e instanceof SetupError) {
			console.log(`not ok - browser set-up\n  ${e.message}`);
			console.log('0 passed, 1 failed');
			return 1;
		}
		throw e;
	}
	const { context } = browser;
	try {
		await suite(context);
	} finally {
		await browser.close();
	}
	return t.summary();
}

// The pointer, zoom, search and URL-state checks on one graph; returns
// what the <img> checks need, or null when difffold failed.
async function interactive(context, label, pair, extra) {
	const check = (name, fn) => t.check(`${label}: ${name}`, fn);
	const svgPath = path.join(tmp, `${label}.svg`);
	let generated = false;
	await check('difffold writes the diff as SVG', async () => {
		difffold(exe, [...extra, pair.base, pair.head, '-o', svgPath]);
		assert(fs.statSync(svgPath).size > 0, 'empty SVG');
		generated = true;
	});
	if (!generated) {
		return null;
	}
	const url = pathToFileURL(svgPath).href;
	const { page, w } = await openDoc(context, url);
	let chrome = await readChrome(page);
	await page.setViewportSize({
		width: Math.ceil(chrome.width) || 1280,
		height: Math.min(Math.ceil(chrome.height) || 800, 4000),
	});
	const initial = buildTree(await readFrames(page));
	const chrome0 = chrome;
	const root0 = initial[0];
	const prefix = chrome.prefix || '';

	await check('markup follows the DOM contract', async () => {
		assert(chrome.tag === 'svg' && chrome.cls.split(/\s+/).includes('difffold'), 'root is not <svg class="difffold">');
		assert(prefix.length > 0, 'no data-prefix on the root');
		assert(
			chrome.viewBox && chrome.viewBox.trim().split(/[\s,]+/).map(Number).join(' ') === `0 0 ${chrome.width} ${chrome.height}`,
			`viewBox '${chrome.viewBox}' is not '0 0 ${chrome.width} ${chrome.height}'`
		);
		const bad = chrome.ids.filter((id) => !id.startsWith(prefix));
		assert(bad.length === 0, `ids without the prefix ${prefix}: ${bad.slice(0, 5)}`);
		assert(initial.length > 2, `only ${initial.length} frames`);
		assert(root0.name === 'all', `first frame is '${root0.name}', not 'all'`);
		for (const f of initial) {
			assert(
				f.childOrder.join(',') === 'title,rect,text',
				`frame ${f.index} children are ${f.childOrder.join(',')}`
			);
			assert(['slower', 'faster', 'new', 'removed', 'same'].includes(f.status), `frame ${f.index} data-status '${f.status}'`);
			for (const k of ['base', 'head', 'baseSelf', 'headSelf']) {
				assert(Number.isFinite(f[k]) && f[k] >= 0, `frame ${f.index} ${k} is ${f[k]}`);
			}
			assert(f.title.startsWith(f.name + '\n'), `frame ${f.index} title has no newline after the name`);
			if (f.parent >= 0) {
				const p = initial[f.parent];
				assert(
					f.ax >= p.ax - 0.11 && f.ax + f.aw <= p.ax + p.aw + 0.11,
					`frame ${f.index} (${f.name}) lies outside its parent ${p.index} (${p.name})`
				);
			}
			const kidsHead = f.children.reduce((s, c) => s + initial[c].head, 0);
			assert(kidsHead <= f.head + 1e-6, `children of frame ${f.index} hold more head samples than it`);
		}
		for (const k of ['details', 'reset', 'searchButton', 'matched', 'caseToggle']) {
			assert(chrome[k].count === 1 && chrome[k].tag === 'text', `${k}: ${chrome[k].count} <${chrome[k].tag}> elements`);
		}
		assert(chrome.details.text.trim() === '', `details line not empty before hover: '${chrome.details.text}'`);
		assert(!chrome.reset.shown, "'Reset zoom' shown before any zoom");
		assert(!chrome.matched.shown, "'Matched' shown before any search");
		assert(/^(ic|Cc)$/.test(chrome.caseToggle.text.trim()), `case toggle reads '${chrome.caseToggle.text}'`);
	});

	await check('frame names never appear inside <script> or <style>', async () => {
		const code = await page.evaluate(() =>
			Array.from(document.querySelectorAll('script, style'), (e) => e.textContent).join('\n')
		);
		const scripts = await page.evaluate(() => document.querySelectorAll('script').length);
		assert(scripts <= 1, `${scripts} <script> elements`);
		// Only names no JS or CSS would contain by chance.
		const names = new Set(initial.map((f) => f.name).filter((n) => n.length >= 10 && /[^\w]|_/.test(n)));
		const found = [...names].filter((n) => code.includes(n));
		assert(found.length === 0, `names inside script/style: ${found.slice(0, 3).join(' | ')}`);
	});

	await check('hover shows the full name and both counts in .details', async () => {
		const cands = initial.filter((f) => f.depth >= 1 && f.aw >= 20 && f.base > 0 && f.head > 0 && f.name !== 'all');
		assert(cands.length > 0, 'no frame wide enough to hover with counts on both sides');
		cands.sort((a, b) => Math.abs(b.head - b.base) - Math.abs(a.head - a.base));
		const tries = [cands[0]];
		const fresh = initial.find((f) => f.depth >= 1 && f.aw >= 20 && f.base === 0 && f.head > 0);
		if (fresh) {
			tries.push(fresh);
		}
		for (const f of tries) {
			await hoverFrame(page, f.index);
			await poll(page, (name) => document.querySelector('.details').textContent.includes(name), f.name, `details of '${f.name}'`);
			const text = await page.evaluate(() => document.querySelector('.details').textContent);
			assert(text.includes(f.name), `details '${text}' lacks the name '${f.name}'`);
			// A new frame is worded 'new', with no base count of 0.
			assert(f.base === 0 ? text.includes(' new: ') : containsNumber(text, f.base), `details '${text}' lacks the base count ${f.base}`);
			assert(containsNumber(text, f.head), `details '${text}' lacks the head count ${f.head}`);
		}
		await page.mouse.move(0, 0);
	});

	const rootW = root0.w;
	const target = pickZoomFrame(initial, rootW);

	await check('click zooms: the frame spans the full width, its siblings are hidden', async () => {
		assert(target, 'no frame with siblings wide enough to click');
		const i = target.index;
		await clickFrame(page, i);
		await poll(page, (j) => window.difffold.state().zoom === j, i, `state().zoom === ${i}`);
		const now = await checkZoomed(page, initial, i, chrome.background);
		const z = now[i];
		const siblings = initial[target.parent].children.filter((c) => c !== i);
		assert(siblings.length > 0, 'chosen frame has no sibling');
		chrome = await readChrome(page);
		assert(chrome.reset.shown, "'Reset zoom' not shown while zoomed");
		const h = parseHash(chrome.hash, prefix);
		assert(h && h.zoom === String(i), `location.hash '${chrome.hash}' is not #${prefix}zoom=${i}`);
		// The label follows the frame when the name now fits.
		const lab = await page.evaluate((j) => {
			const g = document.querySelectorAll('g.frame')[j];
			const tx = g.querySelector('text');
			const r = tx.getBoundingClientRect();
			return { size: parseFloat(getComputedStyle(tx).fontSize) || 12, left: r.left + scrollX, right: r.right + scrollX, text: tx.textContent };
		}, i);
		if (target.name.length * lab.size * 0.62 + 8 < z.w) {
			// Labels drop the perf annotation (_[k], _[j], ...).
			const bare = target.name.replace(/_\[\w+\]$/, '');
			assert(lab.text === target.name || lab.text === bare, `zoomed frame's label is '${lab.text}', its name '${target.name}' fits`);
			assert(lab.left >= z.x - 0.5 && lab.right <= z.x + z.w + 0.5, 'zoomed frame label lies outside its rect');
		}
	});

	await check('Reset zoom shows every frame at its original place again', async () => {
		await clickClass(page, 'reset-zoom');
		await poll(page, () => window.difffold.state().zoom === null, null, 'state().zoom === null');
		const now = await readFrames(page);
		for (const f of now) {
			const o = initial[f.index];
			if (o.gDisplay === 'none') {
				continue; // hidden in the written view
			}
			assert(!classes(f).includes('hide') && f.gDisplay !== 'none', `frame ${f.index} still hidden`);
			assert(near(f.x, o.x, 0.5) && near(f.w, o.w, 0.5), `frame ${f.index} at x=${f.x} w=${f.w}, was x=${o.x} w=${o.w}`);
			assert(f.label === o.label, `frame ${f.index} label '${f.label}', was '${o.label}'`);
		}
		chrome = await readChrome(page);
		assert(!chrome.reset.shown, "'Reset zoom' still shown");
		const h = parseHash(chrome.hash, prefix) || {};
		assert(!('zoom' in h), `hash still holds a zoom: '${chrome.hash}'`);
	});

	await check('clicking the root unzooms', async () => {
		assert(target, 'no zoom target');
		await page.evaluate((j) => window.difffold.zoom(j), target.index);
		await clickFrame(page, 0);
		await poll(page, () => window.difffold.state().zoom === null, null, 'unzoom on a root click');
		const hidden = await page.evaluate(() => document.querySelectorAll('g.frame.hide').length);
		assert(hidden === 0, `${hidden} frames still hidden`);
		for (const f of await readFrames(page)) {
			const o = initial[f.index];
			if (o.gDisplay === 'none') {
				continue; // hidden in the written view
			}
			assert(near(f.x, o.x, 0.5) && near(f.w, o.w, 0.5), `frame ${f.index} at x=${f.x} w=${f.w} after unzoom, was x=${o.x} w=${o.w}`);
		}
	});

	await check('Back undoes a zoom, Forward redoes it', async () => {
		assert(target, 'no zoom target');
		await page.evaluate(() => window.difffold.reset());
		await clickFrame(page, target.index);
		await poll(page, (j) => window.difffold.state().zoom === j, target.index, `zoom on ${target.index}`);
		await page.goBack();
		await poll(page, () => window.difffold.state().zoom === null, null, 'no zoom after Back');
		for (const f of await readFrames(page)) {
			const o = initial[f.index];
			if (o.gDisplay === 'none') {
				continue; // hidden in the written view
			}
			assert(!offGraph(f) && near(f.x, o.x, 0.5) && near(f.w, o.w, 0.5), `frame ${f.index} at x=${f.x} w=${f.w} after Back, was x=${o.x} w=${o.w}`);
		}
		await page.goForward();
		await poll(page, (j) => window.difffold.state().zoom === j, target.index, 'the zoom again after Forward');
		await checkZoomed(page, initial, target.index, chrome.background);
		const h = parseHash(page.url().replace(/^[^#]*/, ''), prefix);
		assert(h && h.zoom === String(target.index), `URL after Forward: ${page.url()}`);
		await page.evaluate(() => window.difffold.reset());
	});

	await check('ARIA: frames group, focusable root frame, details line a live region', async () => {
		const a = await page.evaluate(() => {
			const d = document.querySelector('.details');
			const g = document.querySelector('g.frame');
			return { live: d.getAttribute('aria-live'), role: d.getAttribute('role'), groupRole: g.parentNode.closest('[role="group"]') !== null, tab: g.getAttribute('tabindex'), frameRole: g.getAttribute('role') };
		});
		assert(a.live === 'polite' && a.role === 'status', `details: aria-live ${a.live}, role ${a.role}`);
		assert(a.groupRole && a.tab === '0' && a.frameRole === 'button', `frames: ${JSON.stringify(a)}`);
	});

	await check('keyboard: arrows move focus, Enter zooms, Escape resets, outline visible', async () => {
		const inv = await page.evaluate(() => document.querySelector('svg.difffold').getAttribute('data-inverted') === '1');
		const active = () => page.evaluate(() => {
			const g = document.activeElement;
			const all = Array.from(document.querySelectorAll('g.frame'));
			const r = g.querySelector && g.querySelector('rect');
			const cs = r ? getComputedStyle(r) : null;
			return { i: all.indexOf(g), label: g.getAttribute('aria-label'), stroke: cs && cs.stroke, fill: cs && cs.fill, width: cs && cs.strokeWidth };
		});
		await page.evaluate(() => document.querySelector('g.frame').focus());
		assert((await active()).i === 0, 'the root frame takes no focus');
		const kid = initial[0].children[0];
		await page.keyboard.press(inv ? 'ArrowDown' : 'ArrowUp');
		let a = await active();
		assert(a.i === kid, `after ${inv ? 'ArrowDown' : 'ArrowUp'} focus is on ${a.i}, expected the root's first child ${kid}`);
		assert(a.label && a.label.startsWith(initial[kid].name + ' \u2014 '), `aria-label '${a.label}'`);
		let at = kid;
		if (initial[0].children.length > 1) {
			await page.keyboard.press('ArrowRight');
			a = await active();
			at = initial[0].children[1];
			assert(a.i === at, `after ArrowRight focus is on ${a.i}, expected ${at}`);
			await page.keyboard.press('ArrowLeft');
			assert((await active()).i === kid, 'ArrowLeft does not go back');
			await page.keyboard.press('ArrowRight');
		}
		await page.keyboard.press(inv ? 'ArrowUp' : 'ArrowDown');
		assert((await active()).i === 0, 'the way back to the root does not reach it');
		await page.keyboard.press(inv ? 'ArrowDown' : 'ArrowUp');
		await checkOutlines(page, initial.length);
		await page.evaluate((k) => document.querySelectorAll('g.frame')[k].focus(), at);
		await page.keyboard.press('Enter');
		await poll(page, (j) => window.difffold.state().zoom === j, at, `Enter zooms ${at}`);
		await page.keyboard.press('Escape');
		await poll(page, () => window.difffold.state().zoom === null, null, 'Escape resets');
		await page.evaluate(() => document.activeElement.blur());
	});

	// The narrowest frame with children: on the generated graph it is under
	// a pixel wide, a zoom past 1000x, where the script caps the group's
	// scale (floats drift beyond) and hides the neighbours left in view.
	await check('a deep zoom places the subtree exactly and leaves nothing else on the graph', async () => {
		const deep = initial.filter((f) => f.depth > 0 && f.children.length > 0 && f.gDisplay !== 'none').sort((a, b) => a.aw - b.aw)[0];
		assert(deep, 'no frame with children');
		const scale = rootW / deep.w;
		if (label === 'generated') {
			assert(scale > 1000, `narrowest frame with children is ${deep.w} px wide, a zoom of only ${scale.toFixed(0)}x`);
		}
		await page.evaluate((j) => window.difffold.zoom(j), deep.index);
		await poll(page, (j) => window.difffold.state().zoom === j, deep.index, `state().zoom === ${deep.index}`);
		await checkZoomed(page, initial, deep.index, chrome.background);
		await page.evaluate(() => window.difffold.reset());
		const back = await readFrames(page);
		for (const f of back) {
			const o = initial[f.index];
			if (o.gDisplay === 'none') {
				continue; // hidden in the written view
			}
			assert(!offGraph(f) && near(f.x, o.x, 0.5) && near(f.w, o.w, 0.5), `frame ${f.index} at x=${f.x} w=${f.w} after reset, was x=${o.x} w=${o.w}`);
		}
	});

	// A regex whose matches nest (a frame and one of its descendants), so
	// the 'Matched' figure must count the nested samples once.
	let regex = null;
	for (const f of initial) {
		if (f.depth >= 1 && f.children.length > 0 && f.name !== 'all') {
			const d = descendants(initial, f.index).map((k) => initial[k]).find((x) => x.name !== f.name && !/[A-Z]/.test(x.name) === !/[A-Z]/.test(f.name));
			if (d) {
				regex = `^(?:${escapeRegex(f.name)}|${escapeRegex(d.name)})$`;
				break;
			}
		}
	}

	await check('search (API): class match on exactly the matching frames, Matched: N%', async () => {
		assert(regex, 'no nested pair of names to search');
		const exp = expectedSearch(initial, new RegExp(regex));
		assert(exp.hit.size >= 2, `regex ${regex} matches ${exp.hit.size} frames`);
		await page.evaluate((re) => window.difffold.search(re, true), regex);
		const now = await readFrames(page);
		sameSet(now.filter((f) => classes(f).includes('match')).map((f) => f.index), exp.hit, `class match for /${regex}/`);
		for (const f of now) {
			if (exp.hit.has(f.index)) {
				assert(f.fill !== initial[f.index].fill, `matching frame ${f.index} keeps its fill ${f.fill}`);
			} else {
				assert(f.fill === initial[f.index].fill, `frame ${f.index} fill changed to ${f.fill}`);
			}
		}
		checkMatched(await readChrome(page), exp.percent);
		const st = await searchState(page);
		assert(st.search === regex, `state().search is ${JSON.stringify(st.search)}`);
		assert(st.matchedPercent !== null && Math.abs(st.matchedPercent - exp.percent) <= 0.05 + 1e-9, `state().matchedPercent ${st.matchedPercent}, expected ${exp.percent}`);
		const h = parseHash((await readChrome(page)).hash, prefix);
		assert(h && h.search === encodeURIComponent(regex), `hash search is ${h && h.search}, expected ${encodeURIComponent(regex)}`);
	});

	await check('search ignoring case, then clearSearch', async () => {
		assert(regex, 'no regex');
		const upper = regex.toUpperCase();
		const exp = expectedSearch(initial, new RegExp(upper, 'i'));
		await page.evaluate((re) => window.difffold.search(re, false), upper);
		let now = await readFrames(page);
		sameSet(now.filter((f) => classes(f).includes('match')).map((f) => f.index), exp.hit, `case-insensitive /${upper}/i`);
		checkMatched(await readChrome(page), exp.percent);
		const sens = expectedSearch(initial, new RegExp(upper));
		await page.evaluate((re) => window.difffold.search(re, true), upper);
		now = await readFrames(page);
		sameSet(now.filter((f) => classes(f).includes('match')).map((f) => f.index), sens.hit, `case-sensitive /${upper}/`);
		await page.evaluate(() => window.difffold.clearSearch());
		now = await readFrames(page);
		assert(now.every((f) => !classes(f).includes('match')), 'frames keep class match after clearSearch');
		assert(now.every((f) => f.fill === initial[f.index].fill), 'fills not restored after clearSearch');
		const c = await readChrome(page);
		assert(!c.matched.shown, "'Matched' still shown after clearSearch");
		const st = await searchState(page);
		assert(st.search === null && st.matchedPercent === null, `state after clearSearch: ${JSON.stringify(st)}`);
		const h = parseHash(c.hash, prefix) || {};
		assert(!('search' in h), `hash keeps the search: '${c.hash}'`);
	});

	await check('search (UI): in-page field from the Search button, F3 and Ctrl-F; case toggle; no dialog', async () => {
		assert(regex, 'no regex');
		const exp = expectedSearch(initial, new RegExp(regex));
		const n0 = w.dialogs.length;
		const fieldText = () => page.evaluate(() => {
			const f = document.querySelector('.search-field');
			return f && getComputedStyle(f).display !== 'none' ? f.textContent : null;
		});
		await clickClass(page, 'search-button');
		assert((await fieldText()) !== null, 'the Search button shows no search field');
		await page.keyboard.type(regex);
		assert((await fieldText()).includes(regex), `field reads '${await fieldText()}'`);
		await page.keyboard.press('Enter');
		await poll(page, (n) => document.querySelectorAll('g.frame.match').length === n, exp.hit.size, 'matches after Enter');
		assert((await fieldText()) === null, 'the field stays open after Enter');
		checkMatched(await readChrome(page), exp.percent);
		// Escape in the field clears the search.
		await page.keyboard.press('F3');
		assert((await fieldText()) !== null, 'F3 shows no search field');
		await page.keyboard.press('Escape');
		await poll(page, () => window.difffold.state().search === null && document.querySelectorAll('g.frame.match').length === 0, null, 'Escape clears the search');
		// An invalid pattern is said in the field, which stays open.
		await page.keyboard.press('Control+f');
		await page.keyboard.type('(');
		await page.keyboard.press('Enter');
		assert(/not a valid regular expression/.test(await fieldText()), `field after '(' reads '${await fieldText()}'`);
		await page.keyboard.press('Backspace');
		await page.keyboard.press('Escape');

		// The toggle flips between 'ic' and 'Cc' and decides the next search.
		const before = (await readChrome(page)).caseToggle.text.trim();
		await clickClass(page, 'case-toggle');
		const after = (await readChrome(page)).caseToggle.text.trim();
		assert(before !== after && /^(ic|Cc)$/.test(after), `case toggle went from '${before}' to '${after}'`);
		const upper = regex.toUpperCase();
		const exp2 = expectedSearch(initial, new RegExp(upper, after === 'ic' ? 'i' : ''));
		await page.keyboard.press('F3');
		await page.keyboard.type(upper);
		await page.keyboard.press('Enter');
		await poll(page, (n) => document.querySelectorAll('g.frame.match').length === n && window.difffold.state().search !== null, exp2.hit.size, `matches after F3 (${after})`);
		await clickClass(page, 'case-toggle');
		await page.evaluate(() => window.difffold.clearSearch());
		assert(w.dialogs.length === n0, `dialogs opened: ${JSON.stringify(w.dialogs.slice(n0))}`);
	});

	await check('reloading with the URL state restores zoom and search', async () => {
		assert(target && regex, 'no zoom target or regex');
		await page.evaluate(([j, re]) => {
			window.difffold.zoom(j);
			window.difffold.search(re, true);
		}, [target.index, regex]);
		const saved = page.url();
		assert(saved.includes('#'), `URL has no state: ${saved}`);
		const exp = expectedSearch(initial, new RegExp(regex));
		// The page's own URL, and one written by hand from the contract.
		const handMade = `${url}#${prefix}zoom=${target.index}&search=${encodeURIComponent(regex)}`;
		for (const u of [saved, handMade]) {
			const p2 = await openDoc(context, u, page.viewportSize());
			try {
				// A link's regular expression waits for a click on its prompt.
				await runLinkSearch(p2.page, regex);
				const st = await searchState(p2.page);
				assert(st.zoom === target.index, `zoom not restored from ${u}: ${JSON.stringify(st)}`);
				assert(st.search === regex, `search not restored from ${u}: ${JSON.stringify(st)}`);
				const now = buildTree(await readFrames(p2.page));
				assert(near(now[target.index].w, rootW, 1), `restored zoom: frame width ${now[target.index].w}, not ${rootW}`);
				const sib = initial[target.parent].children.find((c) => c !== target.index);
				assert(offGraph(now[sib]), 'restored zoom: sibling still on the graph');
				// The hand-made URL leaves case sensitivity to the page's
				// default, which its toggle shows.
				const c2 = await readChrome(p2.page);
				const e2 = u === saved ? exp : expectedSearch(initial, new RegExp(regex, c2.caseToggle.text.trim() === 'ic' ? 'i' : ''));
				sameSet(now.filter((f) => classes(f).includes('match')).map((f) => f.index), e2.hit, 'restored search');
				checkMatched(c2, e2.percent);
				assert(p2.w.errors.length === 0 && p2.w.unexpected().length === 0, `errors: ${p2.w.errors} dialogs: ${JSON.stringify(p2.w.unexpected())}`);
			} finally {
				await p2.page.close();
			}
		}
		await page.evaluate(() => {
			window.difffold.reset();
			window.difffold.clearSearch();
		});
	});

	await check('a state link followed within the open page applies it', async () => {
		assert(target, 'no zoom target');
		await page.evaluate((h) => {
			location.hash = h;
		}, `#${prefix}zoom=${target.index}`);
		await poll(page, (j) => window.difffold.state().zoom === j, target.index, 'zoom from hashchange');
		const z = (await readFrames(page))[target.index];
		assert(near(z.w, rootW, 1), `frame width ${z.w} after the hash change, not ${rootW}`);
		await page.evaluate(() => window.difffold.reset());
	});

	await check('no unexpected dialog, page error or console error on the sample', async () => {
		assert(w.unexpected().length === 0, `dialogs: ${JSON.stringify(w.unexpected())}`);
		assert(w.errors.length === 0, w.errors.join('\n'));
	});

	// The first paint of this small sample, for the log only.
	const paint = await page.evaluate(() => performance.getEntriesByType('paint').map((e) => `${e.name} ${e.startTime.toFixed(1)} ms`));
	console.log(`# ${label} paint timing: ${paint.join(', ') || 'no paint entries'}`);
	await page.close();

	return { svgPath, initial, chrome: chrome0 };
}

// Rendered frame boxes of every graph in the page (page-relative, so
// scrolling between readings does not matter), and whether two readings agree.
function boxes() {
	return Array.from(document.querySelectorAll('svg.difffold'), (svg) =>
		Array.from(svg.querySelectorAll('g.frame'), (g) => {
			const r = g.querySelector('rect').getBoundingClientRect();
			const shown = getComputedStyle(g).display !== 'none';
			return { x: r.left + scrollX, y: r.top + scrollY, w: shown ? r.width : 0 };
		})
	);
}
function sameBoxes(a, b) {
	return a.length === b.length && a.every((f, i) => near(f.x, b[i].x, 0.5) && near(f.y, b[i].y, 0.5) && near(f.w, b[i].w, 0.5));
}

async function suite(context) {
	const pair = samplePair(root);
	const main = await interactive(context, 'sample', pair, []);
	if (main) {
		await imgChecks(context, main.svgPath, main.initial, main.chrome);
	}
	// An icicle graph zooms and searches alike, rows counted from the top.
	await interactive(context, 'inverted', pair, ['--inverted']);
	// A larger generated pair: hundreds of frames, deep stacks.
	const gen = {
		base: path.join(root, 'samples', 'generated-base.folded'),
		head: path.join(root, 'samples', 'generated-head.folded'),
	};
	if (fs.existsSync(gen.base) && fs.existsSync(gen.head)) {
		await interactive(context, 'generated', gen, []);
	}
	await toggleChecks(context, pair);
	await detailsChecks(context);
	await hostileChecks(context);
	await linkSearchChecks(context);
	await picviewChecks(context, t, exe, tmp, root);
	if (main) {
		await inlineChecks(context, main.svgPath, path.join(tmp, 'hostile.svg'));
	}
}

// The view toggle (issue 18): head / base / union re-laid out in place
// from data-base/data-head. Widths are checked against the counts (union is
// base + head, the C side's union basis), removed frames that the written
// head view hides appear in the base view, and the head view gives back the
// written geometry exactly.
async function toggleChecks(context, pair) {
	const check = (name, fn) => t.check(`toggle: ${name}`, fn);
	const svgPath = path.join(tmp, 'toggle.svg');
	difffold(exe, [pair.base, pair.head, '-o', svgPath]);
	const { page, w } = await openDoc(context, pathToFileURL(svgPath).href, { width: 1300, height: 900 });
	const initial = buildTree(await readFrames(page));
	const root0 = initial[0];
	const shown = (f) => f.gDisplay !== 'none' && !classes(f).includes('hide') && f.w > 0;
	const basisIn = (v, f) => (v === 'base' ? f.base : v === 'union' ? f.base + f.head : f.head);
	const removed = initial.find((f) => f.head === 0 && f.base > 0);
	const added = initial.find((f) => f.base === 0 && f.head > 0);
	// Every frame with a width in view v is shown at its share of the root,
	// inside its parent; every frame without one is hidden.
	const checkView = async (v) => {
		const now = await readFrames(page);
		const total = basisIn(v, initial[0]);
		for (const f of now) {
			const want = (basisIn(v, initial[f.index]) / total) * root0.w;
			if (want === 0) {
				assert(!shown(f), `${v} view: frame ${f.index} (${f.name}) without ${v} samples is shown`);
				continue;
			}
			assert(shown(f) && near(f.w, want, 0.15), `${v} view: frame ${f.index} (${f.name}) w=${f.w}, expected ${want.toFixed(2)}`);
			const p = initial[f.index].parent;
			if (p >= 0) {
				assert(f.x >= now[p].x - 0.15 && f.x + f.w <= now[p].x + now[p].w + 0.15, `${v} view: frame ${f.index} (${f.name}) leaves its parent`);
			}
		}
		return now;
	};

	await check('the written head view hides removed frames, which the file holds', async () => {
		assert(removed && added, 'the sample pair has no removed or no new frame');
		assert(!shown(removed), `removed frame ${removed.name} is shown in the head view`);
		assert(removed.name === 'middleware::legacy_access_log' || removed.base > 0, 'unexpected removed frame');
		const labels = await page.evaluate(() => Array.from(document.querySelectorAll('.view-toggle'), (b) => [b.textContent, b.getAttribute('font-weight')]));
		assert(JSON.stringify(labels.map((l) => l[0]).sort()) === JSON.stringify(['base', 'head', 'union']), `view buttons: ${JSON.stringify(labels)}`);
		assert(labels.filter((l) => l[1] === 'bold').map((l) => l[0]).join() === 'head', `current view not marked: ${JSON.stringify(labels)}`);
	});

	await check('base view (button): removed frames shown with their base width, new ones hidden', async () => {
		await clickClass(page, 'view-toggle[data-view="base"]');
		await poll(page, () => window.difffold.state().view === 'base', null, "state().view === 'base'");
		const now = await checkView('base');
		assert(shown(now[removed.index]) && now[removed.index].w > 0, `${removed.name} not shown in the base view`);
		assert(!shown(now[added.index]), `new frame ${added.name} shown in the base view`);
		const hash = parseHash(page.url().replace(/^[^#]*/, ''), await page.evaluate(() => document.documentElement.getAttribute('data-prefix')));
		assert(hash && hash.view === 'base', `URL does not keep the view: ${page.url()}`);
		const bold = await page.evaluate(() => document.querySelector('.view-toggle[data-view="base"]').getAttribute('font-weight'));
		assert(bold === 'bold', 'base button not marked');
	});

	await check('union view shows new and removed frames, widths base + head', async () => {
		await page.evaluate(() => window.difffold.view('union'));
		const now = await checkView('union');
		assert(shown(now[removed.index]) && shown(now[added.index]), 'union view lacks the new or the removed frame');
	});

	await check('head view gives back the written geometry within 0.01 px', async () => {
		await page.evaluate(() => window.difffold.view('head'));
		const now = await readFrames(page);
		for (const f of now) {
			const o = initial[f.index];
			assert(f.gDisplay === o.gDisplay, `frame ${f.index} (${f.name}) display ${f.gDisplay}, was ${o.gDisplay}`);
			if (o.gDisplay !== 'none') {
				assert(near(f.x, o.x, 0.01) && near(f.w, o.w, 0.01) && f.label === o.label, `frame ${f.index} at x=${f.x} w=${f.w} '${f.label}', was x=${o.x} w=${o.w} '${o.label}'`);
			}
		}
	});

	await check('zoom then toggle: the zoomed frame keeps the graph, its subtree in the new basis', async () => {
		const z = removed.parent;
		assert(z > 0, 'removed frame has no zoomable parent');
		await page.evaluate((j) => window.difffold.zoom(j), z);
		await page.evaluate(() => window.difffold.view('base'));
		const st = await page.evaluate(() => window.difffold.state());
		assert(st.zoom === z && st.view === 'base', `state ${JSON.stringify(st)}`);
		const now = await readFrames(page);
		assert(near(now[z].w, root0.w, 1) && near(now[z].x, root0.x, 1), `zoomed frame spans x=${now[z].x} w=${now[z].w}`);
		for (const d of descendants(initial, z)) {
			const want = (initial[d].base / initial[z].base) * root0.w;
			if (want === 0) {
				assert(!shown(now[d]), `descendant ${d} (${now[d].name}) without base samples is shown`);
			} else {
				assert(shown(now[d]) && near(now[d].w, want, 0.5 + want * 0.001), `descendant ${d} (${now[d].name}) w=${now[d].w}, expected ${want.toFixed(2)}`);
			}
		}
		const lab = now[removed.index].label;
		assert(lab.includes('removed'), `removed frame's label after zoom and toggle: '${lab}'`);
	});

	await check('Back undoes a toggle, then the zoom', async () => {
		await page.goBack();
		await poll(page, () => window.difffold.state().view === 'head', null, "view 'head' after Back");
		let st = await page.evaluate(() => window.difffold.state());
		assert(st.zoom === removed.parent, `Back undid the zoom too: ${JSON.stringify(st)}`);
		await page.goBack();
		await poll(page, () => window.difffold.state().zoom === null, null, 'no zoom after a second Back');
		st = await page.evaluate(() => window.difffold.state());
		assert(st.view === 'head', `second Back left view ${st.view}, the entry before the zoom was head`);
		await page.goBack();
		await poll(page, () => window.difffold.state().view === 'union', null, "view 'union' after a third Back");
		await page.goForward();
		await poll(page, () => window.difffold.state().view === 'head', null, "view 'head' after Forward");
		for (const f of await readFrames(page)) {
			const o = initial[f.index];
			assert(f.gDisplay === o.gDisplay && (o.gDisplay === 'none' || (near(f.x, o.x, 0.01) && near(f.w, o.w, 0.01))), `frame ${f.index} at x=${f.x} w=${f.w}, was x=${o.x} w=${o.w}`);
		}
	});

	await check('a link with the view restores it', async () => {
		const prefix = await page.evaluate(() => document.documentElement.getAttribute('data-prefix'));
		await page.goto(`${pathToFileURL(svgPath).href}#${prefix}view=union`, { waitUntil: 'load' });
		await poll(page, () => window.difffold && window.difffold.state().view === 'union', null, 'union view from the link');
		await checkView('union');
	});

	await check('no page error', async () => {
		assert(w.errors.length === 0 && w.dialogs.length === 0, [...w.errors, ...w.dialogs].join('\n'));
	});
	await page.close();
}

// Focuses every frame: the outline must be drawn, in the label ink of the
// fill, with a contrast of 3 or more (point 9 of issue 18: black on dark
// frames was not).
async function checkOutlines(page, count) {
	const lum = (c) => {
		const v = parseColor(c).map((x) => x / 255).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
		return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
	};
	for (let j = 0; j < count; j++) {
		const a = await page.evaluate((k) => {
			const g = document.querySelectorAll('g.frame')[k];
			if (getComputedStyle(g).display === 'none') {
				return null; // hidden in this view: nothing to focus
			}
			// Focusable as a pointer or script would make it.
			if (!g.hasAttribute('tabindex')) {
				g.setAttribute('tabindex', '-1');
			}
			g.focus();
			const cs = getComputedStyle(g.querySelector('rect'));
			return { focused: document.activeElement === g, stroke: cs.stroke, fill: cs.fill };
		}, j);
		if (a === null) {
			continue;
		}
		assert(a.focused && a.stroke && a.stroke !== 'none', `frame ${j} focused without an outline: ${JSON.stringify(a)}`);
		const l1 = lum(a.stroke), l2 = lum(a.fill);
		const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
		assert(ratio >= 3, `frame ${j}: outline ${a.stroke} on fill ${a.fill}, contrast ${ratio.toFixed(2)}`);
	}
}

// The details line in the wording of docs/pictures.md, exact strings for a
// slower, an almost unchanged, a new and a removed frame (union widths, so
// the removed frame has a box to hover), and the --runs interval.
async function detailsChecks(context) {
	const svgPath = path.join(tmp, 'details.svg');
	const dir = path.join(root, 'tests', 'browser');
	// Exact counts: the wording alone, with no test of sampling noise.
	difffold(exe, ['--counts', 'exact', '--widths', 'union', path.join(dir, 'details-base.folded'), path.join(dir, 'details-head.folded'), '-o', svgPath]);
	const { page, w } = await openDoc(context, pathToFileURL(svgPath).href, { width: 1300, height: 600 });
	const hoverText = async (name) => {
		const i = await page.evaluate((nm) => Array.from(document.querySelectorAll('g.frame > title')).findIndex((t) => t.textContent.split('\n')[0] === nm), name);
		assert(i >= 0, `no frame '${name}'`);
		await hoverFrame(page, i);
		await poll(page, (nm) => document.querySelector('.details').textContent.startsWith(nm + ' '), name, `details of '${name}'`);
		return page.evaluate(() => document.querySelector('.details').textContent);
	};
	const want = {
		parse: 'parse \u2014 self 420 \u2192 910 (+490, +116.7%, +12.60 pp) \u00b7 total 1,000 \u2192 1,500 (+500, +50.0%, +12.85 pp) samples',
		tokenize_every_character_of_the_request_body_one_at_a_time_and_allocate_a_string_for_each: 'tokenize_every_character_of_the_request_body_one_at_a_time_and_allocate_a_string_for_each \u2014 self 580 \u2192 590 (+10, +1.7%, +0.26 pp) \u00b7 total 580 \u2192 590 (+10, +1.7%, +0.26 pp) samples',
		fresh: 'fresh \u2014 new: self 390, total 390 samples',
		old_path: 'old_path \u2014 removed: self 520, total 520 samples in base',
		main: 'main \u2014 no self samples \u00b7 total 3,520 \u2192 3,890 (+370, +10.5%, +9.51 pp) samples',
	};
	for (const [name, text] of Object.entries(want)) {
		await t.check(`details line of ${name} says ${JSON.stringify(text)}`, async () => {
			const got = await hoverText(name);
			assert(got === text, `details '${got}', expected '${text}'`);
		});
	}
	await t.check('labels on zoom keep the change suffix and cut the name with \u2026', async () => {
		const idx = await page.evaluate(() => Array.from(document.querySelectorAll('g.frame > title'), (t) => t.textContent.split('\n')[0]));
		await page.evaluate((j) => window.difffold.zoom(j), idx.indexOf('parse'));
		const lab = (nm) => page.evaluate((j) => {
			const g = document.querySelectorAll('g.frame')[j];
			return { text: g.querySelector('text').textContent, w: Number(g.querySelector('rect').getAttribute('width')) };
		}, idx.indexOf(nm));
		const p = await lab('parse');
		assert(p.text === 'parse +117%', `zoomed parse labelled '${p.text}'`);
		const long = 'tokenize_every_character_of_the_request_body_one_at_a_time_and_allocate_a_string_for_each';
		const k = await lab(long);
		const cw = Number(await page.evaluate(() => document.querySelector('svg.difffold').getAttribute('data-char-width')));
		const room = Math.floor((k.w - 6) / cw);
		const want = long.slice(0, room - '+1.7%'.length - 2) + '\u2026 +1.7%';
		assert(room < long.length && k.text === want, `label '${k.text}' at ${k.w} px, expected '${want}'`);
		await page.evaluate(() => window.difffold.reset());
	});
	await t.check('dark theme: the focus outline shows on dark frames', async () => {
		const darkPath = path.join(tmp, 'dark.svg');
		difffold(exe, ['--theme', 'dark', path.join(dir, 'details-base.folded'), path.join(dir, 'details-head.folded'), '-o', darkPath]);
		await page.goto(pathToFileURL(darkPath).href, { waitUntil: 'load' });
		await checkOutlines(page, await page.evaluate(() => document.querySelectorAll('g.frame').length));
	});
	await t.check('sampled counts: the details line shows the test, and noise is drawn unchanged', async () => {
		const sampledPath = path.join(tmp, 'sampled.svg');
		difffold(exe, ['--widths', 'union', path.join(dir, 'details-base.folded'), path.join(dir, 'details-head.folded'), '-o', sampledPath]);
		await page.goto(pathToFileURL(sampledPath).href, { waitUntil: 'load' });
		const got = await hoverText('parse');
		const text = want.parse + ' \u00b7 change +11.46 pp [9.56, 13.36], p<0.0001';
		assert(got === text, `details '${got}', expected '${text}'`);
		const long = 'tokenize_every_character_of_the_request_body_one_at_a_time_and_allocate_a_string_for_each';
		const status = await page.evaluate((nm) => {
			const t = Array.from(document.querySelectorAll('g.frame > title')).find((e) => e.textContent.split('\n')[0] === nm);
			return t.parentNode.getAttribute('data-status');
		}, long);
		assert(status === 'same', `${long} (+1.7%, not significant) drawn as '${status}'`);
	});
	await t.check('details line under --runs shows the interval and p', async () => {
		const runsPath = path.join(tmp, 'runs.svg');
		const runs = ['--runs'];
		for (const side of ['b1', 'b2', 'h1', 'h2']) {
			runs.push(side[0] === 'b' ? '--base' : '--head', path.join(dir, `runs-${side}.folded`));
		}
		difffold(exe, [...runs, '-o', runsPath]);
		await page.goto(pathToFileURL(runsPath).href, { waitUntil: 'load' });
		const got = await hoverText('parse');
		const text = 'parse \u2014 self 810 \u2192 1,020 (+210, +25.9%, +10.50 pp) \u00b7 total 810 \u2192 1,020 (+210, +25.9%, +10.50 pp) samples \u00b7 change +10.50 pp [1.30, 19.70], p=0.0391';
		assert(got === text, `details '${got}', expected '${text}'`);
	});
	await t.check('details line: no page error', async () => {
		assert(w.errors.length === 0, w.errors.join('\n'));
	});
	await page.close();
}

// Two graphs pasted inline into one HTML page (a report, a dashboard):
// ids must not collide and each script must drive its own graph only.
async function inlineChecks(context, svgA, svgB) {
	await t.check('two graphs inline in one HTML page work independently', async () => {
		assert(fs.existsSync(svgB), 'second graph missing');
		const strip = (f) => fs.readFileSync(f, 'utf8').replace(/^<\?xml[^>]*\?>\s*/, '');
		const html = path.join(tmp, 'inline.html');
		fs.writeFileSync(
			html,
			'<!doctype html><html><head><meta charset="utf-8"><title>two graphs</title></head><body style="margin:0">' +
				`<div>${strip(svgA)}</div><div>${strip(svgB)}</div></body></html>`
		);
		const { page, w } = await openDoc(context, pathToFileURL(html).href, { width: 1300, height: 900 });
		try {
			const info = await page.evaluate(() => {
				const ids = Array.from(document.querySelectorAll('[id]'), (e) => e.id);
				return {
					graphs: document.querySelectorAll('svg.difffold').length,
					ids: ids.length,
					unique: new Set(ids).size,
					pwned: window.__pwned,
				};
			});
			assert(info.graphs === 2, `${info.graphs} graphs in the page`);
			assert(info.ids === info.unique, `${info.ids - info.unique} duplicate ids`);
			assert(info.pwned === undefined, 'a script from the input ran');
			// Point at frame 1 of each graph; only that graph's details change.
			for (const g of [0, 1]) {
				const p = await page.evaluate((k) => {
					const svg = document.querySelectorAll('svg.difffold')[k];
					// The last wide frame: deep, with frames beside it to hide.
					const rs = Array.from(svg.querySelectorAll('g.frame > rect'));
					let i = rs.length - 1;
					while (i > 1 && Number(rs[i].getAttribute('width')) < 10) {
						i--;
					}
					const r = rs[i];
					svg.dataset.testFrame = String(i);
					r.scrollIntoView({ block: 'center' });
					const b = r.getBoundingClientRect();
					return { x: b.left + Math.min(b.width / 2, 20), y: b.top + b.height / 2 };
				}, g);
				await page.mouse.move(p.x, p.y);
				await poll(page, (k) => document.querySelectorAll('svg.difffold')[k].querySelector('.details').textContent !== '', g, `details of graph ${g}`);
				const texts = await page.evaluate(() => Array.from(document.querySelectorAll('svg.difffold .details'), (d) => d.textContent));
				const name = await page.evaluate((k) => {
					const svg = document.querySelectorAll('svg.difffold')[k];
					return svg.querySelectorAll('g.frame > title')[Number(svg.dataset.testFrame)].textContent.split('\n')[0];
				}, g);
				assert(texts[g].includes(name), `graph ${g} details '${texts[g]}' lack '${name}'`);
				const before = await page.evaluate(boxes);
				await page.mouse.click(p.x, p.y);
				const zoomed = await page.evaluate(boxes);
				const k = Number(await page.evaluate((j) => document.querySelectorAll('svg.difffold')[j].dataset.testFrame, g));
				const root = zoomed[g][0];
				assert(near(zoomed[g][k].w, root.w, 1), `graph ${g} did not zoom: frame ${k} is ${zoomed[g][k].w} wide, the root ${root.w}`);
				assert(sameBoxes(zoomed[1 - g], before[1 - g]), `zooming graph ${g} moved frames of graph ${1 - g}`);
				const reset = await page.evaluate((k) => {
					const r = document.querySelectorAll('svg.difffold')[k].querySelector('.reset-zoom');
					r.scrollIntoView({ block: 'center' });
					const b = r.getBoundingClientRect();
					return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
				}, g);
				await page.mouse.click(reset.x, reset.y);
				const after = await page.evaluate(boxes);
				assert(sameBoxes(after[0], before[0]) && sameBoxes(after[1], before[1]), `after reset, graph ${g} frames are not back in place`);
			}
			assert(w.unexpected().length === 0 && w.errors.length === 0, `${w.errors.join('; ')} ${JSON.stringify(w.unexpected())}`);
		} finally {
			await page.close();
		}
	});
}

// Screenshot of `svgFile` as an <img> in an HTML page, decoded.
async function imgShot(context, svgFile, width, height) {
	const html = path.join(tmp, `img-${path.basename(svgFile)}.html`);
	fs.writeFileSync(
		html,
		`<!doctype html><html><head><meta charset="utf-8"></head>` +
			`<body style="margin:0;background:#fff"><img src="${path.basename(svgFile)}" style="display:block"></body></html>`
	);
	const page = await context.newPage();
	const w = watch(page);
	await page.setViewportSize({ width, height });
	await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
	const img = await page.evaluate(() => {
		const i = document.querySelector('img');
		return { complete: i.complete, w: i.naturalWidth, h: i.naturalHeight };
	});
	const png = decodePNG(await page.screenshot({ clip: { x: 0, y: 0, width, height } }));
	await page.close();
	return { img, png, w };
}

async function imgChecks(context, svgPath, initial, chrome) {
	// The frames the header's markers point at (data-frame: index among g.frame).
	const markedFrames = [...fs.readFileSync(svgPath, 'utf8').matchAll(/class="marker"[^>]*data-frame="(\d+)"/g)].map((m) => Number(m[1]));
	const W = Math.ceil(chrome.width);
	const H = Math.ceil(chrome.height);
	let shot;
	let bare;
	await t.check('the SVG renders as <img> (no script) at its own size', async () => {
		shot = await imgShot(context, svgPath, W, H);
		assert(shot.img.complete && shot.img.w === W && shot.img.h === H, `img ${JSON.stringify(shot.img)}, expected ${W}x${H}`);
		const seen = new Set();
		let ink = 0;
		const bg = shot.png.at(0, 0);
		for (let y = 0; y < H; y += 2) {
			for (let x = 0; x < W; x += 2) {
				const c = shot.png.at(x, y);
				seen.add((c[0] >> 3) * 1024 + (c[1] >> 3) * 32 + (c[2] >> 3));
				ink += colorDistance(c, bg) > 24;
			}
		}
		const share = ink / ((W / 2) * (H / 2));
		assert(seen.size >= 8 && share > 0.1, `picture looks blank: ${seen.size} colours, ${(share * 100).toFixed(1)}% ink`);
		// The same file with every text emptied, to see where text draws ink.
		const src = fs.readFileSync(svgPath, 'utf8');
		const noText = path.join(tmp, 'notext.svg');
		fs.writeFileSync(noText, src.replace(/(<text\b[^>]*>)[\s\S]*?(<\/text>)/g, '$1$2'));
		bare = await imgShot(context, noText, W, H);
	});
	if (!shot || !bare) {
		return;
	}

	await t.check('<img>: frames show their fills at their places', async () => {
		// A marked frame may carry its marker's badge at its right end.
		const marked = new Set(markedFrames);
		const wide = initial.filter((f) => f.aw >= 8 && f.ah >= 4 && !marked.has(f.index)).sort((a, b) => b.aw - a.aw).slice(0, 40);
		assert(wide.length > 0, 'no frame wide enough to sample');
		for (const f of wide) {
			const want = parseColor(f.fill);
			assert(want, `frame ${f.index} fill '${f.fill}' unreadable`);
			const got = shot.png.at(f.ax + f.aw - 2.5, f.ay + f.ah / 2);
			assert(colorDistance(got, want) <= 6, `frame ${f.index} (${f.name}) pixel rgb(${got}) at its right end, fill rgb(${want})`);
		}
	});

	const page = await context.newPage();
	await page.setViewportSize({ width: W, height: Math.min(H, 4000) });
	await page.goto(pathToFileURL(svgPath).href, { waitUntil: 'load' });
	const marks = await page.evaluate(() => {
		const box = (el) => {
			const b = el.getBBox();
			return { x: b.x, y: b.y, w: b.width, h: b.height };
		};
		const shown = (el) => getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden';
		const swatches = [];
		for (const r of document.querySelectorAll('rect')) {
			// The markers' badges and the depth cap's boxes are not legend.
			if (r.closest('g.frame') || r.closest('g.markers') || r.closest('g.capped') || !shown(r)) {
				continue;
			}
			const b = box(r);
			if (b.w >= 4 && b.h >= 4 && b.w < document.documentElement.getAttribute('width') * 0.5) {
				swatches.push({ ...b, fill: getComputedStyle(r).fill });
			}
		}
		const texts = [];
		for (const tx of document.querySelectorAll('text')) {
			// The controls are the script's: an <img> need not show them.
			const control = ['details', 'matched', 'reset-zoom', 'case-toggle', 'search-button', 'view-toggle'].some((c) => tx.classList.contains(c));
			if (control || tx.closest('g.frame') || !shown(tx) || tx.textContent.trim() === '') {
				continue;
			}
			texts.push({ ...box(tx), text: tx.textContent, cls: tx.getAttribute('class') || '' });
		}
		const labels = [];
		for (const tx of document.querySelectorAll('g.frame > text')) {
			if (tx.textContent.trim().length >= 3 && labels.length < 25) {
				labels.push({ ...box(tx), text: tx.textContent });
			}
		}
		return { swatches, texts, labels };
	});
	await page.close();

	// Pixels in a box that differ between the picture and its text-less twin.
	const ink = (b) => {
		let n = 0;
		for (let y = Math.max(0, Math.floor(b.y)); y < Math.min(H, Math.ceil(b.y + b.h)); y++) {
			for (let x = Math.max(0, Math.floor(b.x)); x < Math.min(W, Math.ceil(b.x + b.w)); x++) {
				n += colorDistance(shot.png.at(x, y), bare.png.at(x, y)) > 40;
			}
		}
		return n;
	};

	await t.check('<img>: header and legend text is drawn', async () => {
		assert(marks.texts.length >= 3, `only ${marks.texts.length} visible header/legend texts`);
		for (const m of marks.texts) {
			const n = ink(m);
			assert(n >= Math.min(20, m.w * m.h * 0.02), `text '${m.text}' at ${m.x.toFixed(0)},${m.y.toFixed(0)} draws ${n} pixels`);
		}
		const all = marks.texts.map((m) => m.text).join('\n');
		const root = initial[0];
		assert(containsNumber(all, root.head), `header lacks the head total ${root.head}: ${all}`);
		if (root.base > 0) {
			assert(containsNumber(all, root.base), `header lacks the base total ${root.base}: ${all}`);
		}
	});

	await t.check('<img>: legend swatches show their colours', async () => {
		assert(marks.swatches.length >= 4, `only ${marks.swatches.length} legend swatches`);
		for (const s of marks.swatches) {
			const want = parseColor(s.fill);
			const got = shot.png.at(s.x + s.w / 2, s.y + s.h / 2);
			assert(want && colorDistance(got, want) <= 6, `swatch at ${s.x},${s.y} shows rgb(${got}), fill ${s.fill}`);
		}
		const fills = new Set(marks.swatches.map((s) => s.fill));
		assert(fills.size >= 4, `legend has ${fills.size} distinct colours`);
	});

	await t.check('<img>: frame labels are drawn', async () => {
		assert(marks.labels.length > 0, 'no frame has a label');
		for (const m of marks.labels) {
			const n = ink(m);
			assert(n >= Math.min(15, m.w * m.h * 0.02), `label '${m.text}' draws ${n} pixels`);
		}
	});

	await t.check('<img> and the scripted document look the same before interaction', async () => {
		const p = await context.newPage();
		await p.setViewportSize({ width: W, height: H });
		await p.goto(pathToFileURL(svgPath).href, { waitUntil: 'load' });
		const doc = decodePNG(await p.screenshot({ clip: { x: 0, y: 0, width: W, height: H } }));
		await p.close();
		let diff = 0;
		for (let y = 0; y < H; y++) {
			for (let x = 0; x < W; x++) {
				diff += colorDistance(doc.at(x, y), shot.png.at(x, y)) > 40;
			}
		}
		assert(diff <= W * H * 0.01, `${diff} of ${W * H} pixels differ`);
	});
}

const HOSTILE = [
	'<script>alert(1),window.__pwned=1</script>',
	'"><svg onload=alert(2)>',
	"'><img src=x onerror=alert(3)>",
	'javascript:alert(4)',
	']]><script>alert(5)</script><![CDATA[',
	'</title></g><script>alert(6)</script>',
	'line\u2028sep\u2029para',
	'${alert(7)}`+alert(8)//',
	'--><!--&amp &#60 &',
	'#zoom=0&search=%3Cscript%3E',
];

async function hostileChecks(context) {
	const svgPath = path.join(tmp, 'hostile.svg');
	let ok = false;
	await t.check('difffold writes the hostile-name sample', async () => {
		difffold(exe, [path.join(HERE, 'hostile-base.folded'), path.join(HERE, 'hostile-head.folded'), '-o', svgPath]);
		ok = true;
	});
	if (!ok) {
		return;
	}
	const url = pathToFileURL(svgPath).href;
	const { page, w } = await openDoc(context, url, { width: 1280, height: 800 });
	const frames = buildTree(await readFrames(page));

	await t.check('hostile: well-formed, names intact, nothing injected', async () => {
		const doc = await page.evaluate(() => {
			const els = Array.from(document.getElementsByTagName('*'));
			return {
				root: document.documentElement.localName,
				parseError: document.getElementsByTagName('parsererror').length,
				scripts: document.getElementsByTagName('script').length,
				svgs: document.getElementsByTagName('svg').length,
				foreign: els.filter((e) => ['img', 'foreignObject', 'iframe', 'a', 'image', 'use'].includes(e.localName)).map((e) => e.localName),
				onattrs: els.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)).map((a) => `${e.localName}@${a.name}`)),
				code: Array.from(document.querySelectorAll('script, style'), (e) => e.textContent).join('\n'),
				pwned: window.__pwned,
			};
		});
		assert(doc.root === 'svg' && doc.parseError === 0, 'the hostile SVG is not well-formed');
		assert(doc.scripts <= 1 && doc.svgs === 1, `${doc.scripts} scripts, ${doc.svgs} svg elements`);
		assert(doc.foreign.length === 0, `unexpected elements: ${doc.foreign}`);
		assert(doc.onattrs.length === 0, `event-handler or javascript: attributes: ${doc.onattrs}`);
		assert(doc.pwned === undefined, 'a script from the input ran');
		const names = new Set(frames.map((f) => f.name));
		for (const n of HOSTILE) {
			assert(names.has(n), `name ${JSON.stringify(n)} not found verbatim in any <title>`);
			assert(!doc.code.includes(n), `name ${JSON.stringify(n)} inside script/style`);
		}
	});

	await t.check('hostile: hover, zoom and search on every hostile frame', async () => {
		const targets = frames.filter((f) => HOSTILE.includes(f.name) && f.aw >= 4);
		assert(targets.length >= HOSTILE.length, `only ${targets.length} hostile frames drawn`);
		for (const f of targets) {
			await hoverFrame(page, f.index);
			await poll(page, (n) => document.querySelector('.details').textContent.includes(n), f.name, `details of ${JSON.stringify(f.name)}`);
			await clickFrame(page, f.index);
			await poll(page, (j) => window.difffold.state().zoom === j, f.index, `zoom on ${JSON.stringify(f.name)}`);
			const label = await page.evaluate((j) => document.querySelectorAll('g.frame')[j].querySelector('text').textContent, f.index);
			// The change suffix (docs/pictures.md#labels) off, then the cut marker.
			const cut = label.replace(/ ([+-][\d,.]+%|new|removed)$/, '');
			assert(label === '' || f.name.startsWith(cut.replace(/\u2026$/, '')) || f.name.endsWith(cut.replace(/^\u2026/, '')), `label ${JSON.stringify(label)} is not a cut of ${JSON.stringify(f.name)}`);
			await page.evaluate(() => window.difffold.reset());
			const re = `^${escapeRegex(f.name)}$`;
			await page.evaluate((r) => window.difffold.search(r, true), re);
			const hit = await page.evaluate(() => Array.from(document.querySelectorAll('g.frame'), (g, k) => (g.classList.contains('match') ? k : -1)).filter((k) => k >= 0));
			sameSet(hit, expectedSearch(frames, new RegExp(re)).hit, `search ${JSON.stringify(f.name)}`);
			// The state round-trips through the URL without running anything.
			const p2 = await openDoc(context, page.url(), { width: 1280, height: 800 });
			const st = await searchState(p2.page);
			await p2.page.close();
			// `^...$` is a regular expression: it comes back waiting for a click.
			assert(st.search === null && st.linkSearch === re, `search ${JSON.stringify(re)} came back from the URL as ${JSON.stringify(st)}`);
			assert(p2.w.unexpected().length === 0 && p2.w.errors.length === 0, `reload: ${p2.w.errors} ${JSON.stringify(p2.w.unexpected())}`);
			await page.evaluate(() => window.difffold.clearSearch());
		}
	});

	await t.check('hostile: a crafted URL hash and an invalid regex raise nothing', async () => {
		const prefix = await page.evaluate(() => document.documentElement.getAttribute('data-prefix'));
		const hashes = [
			`#${prefix}zoom=999999&search=${encodeURIComponent('"><svg onload=alert(10)>')}`,
			`#${prefix}zoom=-1&search=${encodeURIComponent('(')}`,
			`#${prefix}zoom=abc&search=%E0%A4%A`,
			`#javascript:alert(11)`,
		];
		for (const h of hashes) {
			const p2 = await openDoc(context, url + h, { width: 1280, height: 800 });
			const pwned = await p2.page.evaluate(() => window.__pwned);
			await p2.page.close();
			assert(pwned === undefined, `script ran for ${h}`);
			assert(p2.w.unexpected().length === 0 && p2.w.errors.length === 0, `${h}: ${p2.w.errors.join('; ')} ${JSON.stringify(p2.w.unexpected())}`);
		}
	});

	await t.check('an invalid regex typed in the search field raises no page error', async () => {
		const errors = w.errors.length;
		await clickClass(page, 'search-button');
		await page.keyboard.type('(');
		await page.keyboard.press('Enter');
		await page.keyboard.press('Escape');
		assert(w.errors.length === errors, w.errors.slice(errors).join('\n'));
		const st = await searchState(page);
		assert(st.search === null, `state().search is ${JSON.stringify(st.search)} after an invalid regex`);
	});

	await t.check('hostile: no dialog, page error or console error', async () => {
		const shot = await imgShot(context, svgPath, 1280, 800);
		assert(shot.w.unexpected().length === 0 && shot.w.errors.length === 0, `<img>: ${shot.w.errors} ${JSON.stringify(shot.w.unexpected())}`);
		const pwned = await page.evaluate(() => window.__pwned);
		assert(pwned === undefined, 'a script from the input ran');
		assert(w.unexpected().length === 0, `dialogs: ${JSON.stringify(w.unexpected())}`);
		assert(w.errors.length === 0, w.errors.join('\n'));
	});
	await page.close();
}

// Issue 21, item 11: a search in a shared link is a pattern someone else
// wrote. ^([\w:_-]+)*#$ on a long name backtracks for minutes; opening such a
// link must leave the page responsive, the pattern waiting for a click.
async function linkSearchChecks(context) {
	const long = 'std::vector_' + 'abcdefghij_'.repeat(5) + 'insert';
	const folded = path.join(tmp, 'link-search.folded');
	fs.writeFileSync(folded, `main;${long} 5\nmain;plain_name 3\nmain;hash# 2\n`);
	const svgPath = path.join(tmp, 'link-search.svg');
	let ok = false;
	await t.check('link search: difffold writes the graph', async () => {
		difffold(exe, [folded, '-o', svgPath]);
		ok = true;
	});
	if (!ok) {
		return;
	}
	const url = pathToFileURL(svgPath).href;
	const page0 = await openDoc(context, url, { width: 1280, height: 800 });
	const prefix = await page0.page.evaluate(() => document.documentElement.getAttribute('data-prefix'));
	const frames = buildTree(await readFrames(page0.page));
	await page0.page.close();
	const evil = '^([\\w:_-]+)*#$';

	await t.check('link search: a catastrophic regex in the URL leaves the page responsive', async () => {
		const page = await context.newPage();
		const w = watch(page);
		try {
			await page.setViewportSize({ width: 1280, height: 800 });
			const started = Date.now();
			// The old script ran the pattern while the page loaded: no load event.
			await page.goto(`${url}#${prefix}zoom=1&search=${encodeURIComponent(evil)}`, { waitUntil: 'load', timeout: 15000 });
			const answer = await Promise.race([
				page.evaluate(() => 'answered'),
				new Promise((resolve) => setTimeout(() => resolve('no answer'), 5000)),
			]);
			assert(answer === 'answered', 'the page does not answer');
			const st = await searchState(page);
			assert(st.zoom === 1, `zoom from the link not applied: ${JSON.stringify(st)}`);
			assert(st.search === null && st.linkSearch === evil, `the pattern ran or was lost: ${JSON.stringify(st)}`);
			const p = await linkPrompt(page);
			assert(p && p.shown && p.text.includes(evil), `prompt: ${JSON.stringify(p)}`);
			// Other actions work and keep the pattern in the URL.
			await page.evaluate(() => window.difffold.reset());
			const h = parseHash(await page.evaluate(() => location.hash), prefix) || {};
			assert(h.search === encodeURIComponent(evil), `the link's search left the URL: ${JSON.stringify(h)}`);
			assert(Date.now() - started < 15000, 'too slow');
			assert(w.unexpected().length === 0 && w.errors.length === 0, `${w.errors} ${JSON.stringify(w.unexpected())}`);
		} finally {
			await page.close({ runBeforeUnload: false });
		}
	});

	await t.check('link search: a plain word runs at once, a regex after a click', async () => {
		let p2 = await openDoc(context, `${url}#${prefix}search=plain_name`, { width: 1280, height: 800 });
		let st = await searchState(p2.page);
		assert(st.search === 'plain_name' && st.linkSearch === null, `plain word: ${JSON.stringify(st)}`);
		let hit = await p2.page.evaluate(() => document.querySelectorAll('g.frame.match').length);
		assert(hit === expectedSearch(frames, /plain_name/i).hit.size && hit === 1, `plain word: ${hit} matches`);
		await p2.page.close();
		const re = '^(?:plain_name|hash#)$';
		p2 = await openDoc(context, `${url}#${prefix}search=${encodeURIComponent(re)}&case=1`, { width: 1280, height: 800 });
		hit = await p2.page.evaluate(() => document.querySelectorAll('g.frame.match').length);
		assert(hit === 0, `${hit} matches before the click`);
		await runLinkSearch(p2.page, re);
		hit = await p2.page.evaluate(() => document.querySelectorAll('g.frame.match').length);
		assert(hit === 2, `${hit} matches after the click, not 2`);
		st = await searchState(p2.page);
		const c = await readChrome(p2.page);
		assert(c.caseToggle.text.trim() === 'Cc', "case=1 from the link not applied");
		checkMatched(c, 50);
		assert(p2.w.unexpected().length === 0 && p2.w.errors.length === 0, `${p2.w.errors} ${JSON.stringify(p2.w.unexpected())}`);
		await p2.page.close();
	});
}

main()
	.then((failed) => {
		fs.rmSync(tmp, { recursive: true, force: true });
		process.exit(failed ? 1 : 0);
	})
	.catch(async (e) => {
		await t.check('the suite runs to its end', () => {
			throw e;
		});
		t.summary();
		process.exit(1);
	});
