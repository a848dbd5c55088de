// difffold: hover details, zoom and search for the SVG flame graph.
//
// Everything this script needs is read from the document it sits in: frame
// names from each frame's title element, counts from its data- attributes, the
// geometry rules from data- attributes of the root svg element. No frame name is
// ever part of this file. One listener per event type on the root element
// serves every frame, search writes only the fills that change, and zoom moves
// the frames with one transform (see zoom below), so graphs of 50,000 frames
// stay smooth.
(function () {
	'use strict';

	var script = document.currentScript;
	var svg = script && script.closest ? script.closest('svg.difffold') : null;
	if (!svg) {
		var all = document.querySelectorAll('svg.difffold');
		svg = all[all.length - 1];
	}
	if (!svg) {
		return;
	}

	function num(name) {
		return parseFloat(svg.getAttribute(name)) || 0;
	}
	function one(cls) {
		return svg.querySelector('.' + cls);
	}

	var prefix = svg.getAttribute('data-prefix') || '';
	var differential = svg.getAttribute('data-differential') === '1';
	var widths = svg.getAttribute('data-widths') || 'head';
	var truncateLeft = svg.getAttribute('data-truncate') === 'left';
	var countname = svg.getAttribute('data-countname') || 'samples';
	var gx = num('data-graph-x');
	var gw = num('data-graph-width');
	var fh = num('data-frame-height') || 16;
	var cw = num('data-char-width') || 7.2;
	var pad = num('data-label-pad');
	var labelDy = num('data-label-dy');
	var group = svg.querySelector('g[id="' + prefix + 'frames"]');
	var searchFill = (group && group.getAttribute('data-search-fill')) || '#e600e6';

	var details = one('details');
	// The graph's markers point at frames as written: hidden once zoomed or
	// in another view. A compact header has the details line on the
	// legend's place: the legend hides while it shows.
	var markers = svg.querySelector('g[id="' + prefix + 'markers"]');
	var legend = svg.getAttribute('data-compact') === '1' ? one('legend') : null;
	var capped = svg.querySelector('g[id="' + prefix + 'capped"]');
	var matched = one('matched');
	var resetButton = one('reset-zoom');
	var searchButton = one('search-button');
	var caseToggle = one('case-toggle');

	var els = svg.querySelectorAll('g.frame');
	var n = els.length;
	if (n === 0) {
		return;
	}
	var rects = new Array(n), texts = new Array(n), titles = new Array(n);
	var names = new Array(n); // filled lazily from the titles
	var fills = new Array(n), labels = new Array(n), orig = new Array(n);
	var index = new Map();
	var base = new Float64Array(n), head = new Float64Array(n);
	var baseSelf = new Float64Array(n), headSelf = new Float64Array(n);
	var basis = new Float64Array(n), start = new Float64Array(n);
	var ox = new Float64Array(n), ow = new Float64Array(n), oy = new Float64Array(n);
	var cx = new Float64Array(n), cwid = new Float64Array(n);
	// The view's geometry before any zoom (the file's in the written view),
	// and whether the view hides the frame: the file hides frames the
	// written basis shows at zero width or prunes (display="none").
	var vx = new Float64Array(n), vw = new Float64Array(n);
	var vhide = new Uint8Array(n), fileHidden = new Uint8Array(n);
	var writtenStart = null;
	var parent = new Int32Array(n), end = new Int32Array(n);
	var hidden = new Uint8Array(n), matches = new Uint8Array(n);
	// Whether a frame's text element has a position (it is written without
	// one while it has no label): only those follow the rect on zoom.
	var placed = new Uint8Array(n);

	function value(g, name) {
		return parseFloat(g.getAttribute(name)) || 0;
	}
	// Width of a frame in samples under a --widths basis (the image's when
	// none is given): union is base + head, as layout_basis has it.
	function basisOf(b, h, w) {
		w = w || widths;
		if (!differential || w === 'head') {
			return h;
		}
		return w === 'base' ? b : b + h;
	}

	// Reads every frame once; rebuilds the tree from pre-order and depth.
	(function load() {
		var stack = [];
		var y0 = 0;
		var selfBasis = new Float64Array(n);
		for (var i = 0; i < n; i++) {
			var g = els[i];
			index.set(g, i);
			var t = g.firstElementChild;
			var r = t.nextElementSibling;
			titles[i] = t;
			rects[i] = r;
			texts[i] = r.nextElementSibling;
			placed[i] = texts[i].hasAttribute('y') ? 1 : 0;
			fills[i] = r.getAttribute('fill');
			labels[i] = null; // the label as written, read when first changed
			ox[i] = cx[i] = vx[i] = parseFloat(r.getAttribute('x'));
			ow[i] = cwid[i] = vw[i] = parseFloat(r.getAttribute('width'));
			hidden[i] = vhide[i] = fileHidden[i] = g.getAttribute('display') === 'none' ? 1 : 0;
			base[i] = value(g, 'data-base');
			head[i] = value(g, 'data-head');
			basis[i] = basisOf(base[i], head[i]);
			baseSelf[i] = g.hasAttribute('data-base-self') ? value(g, 'data-base-self') : NaN;
			headSelf[i] = g.hasAttribute('data-head-self') ? value(g, 'data-head-self') : NaN;
			var y = oy[i] = parseFloat(r.getAttribute('y'));
			if (i === 0) {
				y0 = y;
			}
			var d = Math.round(Math.abs(y - y0) / fh);
			stack.length = d;
			parent[i] = d > 0 ? stack[d - 1] : -1;
			stack[d] = i;
			end[i] = i + 1;
		}
		for (i = n - 1; i > 0; i--) {
			if (end[i] > end[parent[i]]) {
				end[parent[i]] = end[i];
			}
		}
		selfCounts();
		for (i = 0; i < n; i++) {
			selfBasis[i] = basisOf(baseSelf[i], headSelf[i]);
		}
		placeInSamples(selfBasis);
		writtenStart = start.slice();
	})();

	// Self counts of a file without data-*-self attributes: the total less
	// the children's totals.
	function selfCounts() {
		var i, kidsB = new Float64Array(n), kidsH = new Float64Array(n);
		for (i = 1; i < n; i++) {
			kidsB[parent[i]] += base[i];
			kidsH[parent[i]] += head[i];
		}
		for (i = 0; i < n; i++) {
			if (isNaN(baseSelf[i])) {
				baseSelf[i] = Math.max(0, base[i] - kidsB[i]);
			}
			if (isNaN(headSelf[i])) {
				headSelf[i] = Math.max(0, head[i] - kidsH[i]);
			}
		}
	}

	// Left edges in samples, so zooming does not magnify the rounding of the
	// written coordinates. A child starts where its previous drawn sibling
	// ends, plus the share of pruned siblings that the pixels show between.
	function placeInSamples(selfBasis) {
		var pps = basis[0] > 0 ? gw / basis[0] : 0;
		var pruned = new Float64Array(n);
		var cursor = new Float64Array(n), cursorPx = new Float64Array(n);
		var i;
		for (i = 0; i < n; i++) {
			pruned[i] = basis[i] - selfBasis[i];
			cursor[i] = -1;
		}
		for (i = 1; i < n; i++) {
			pruned[parent[i]] -= basis[i];
		}
		start[0] = 0;
		for (i = 1; i < n; i++) {
			var p = parent[i];
			var at = cursor[p] < 0 ? start[p] : cursor[p];
			var atPx = cursor[p] < 0 ? ox[p] : cursorPx[p];
			var gapPx = ox[i] - atPx;
			if (pruned[p] > basis[p] * 1e-9 && gapPx > 0.05 && pps > 0) {
				var gap = Math.min(pruned[p], gapPx / pps);
				pruned[p] -= gap;
				at += gap;
			}
			start[i] = at;
			cursor[p] = at + basis[i];
			cursorPx[p] = ox[i] + ow[i];
		}
	}

	function nameOf(i) {
		var s = names[i];
		if (s === undefined) {
			s = titles[i].textContent;
			var nl = s.indexOf('\n');
			names[i] = s = nl < 0 ? s : s.slice(0, nl);
		}
		return s;
	}

	// A name with its template arguments and parameter lists folded, as
	// shortname.c does: "f<…>::g(…)". Operators and a part that starts
	// with "<" or "(" are kept; unbalanced brackets are left as they are.
	function isWord(c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		       c === '_' || c === '>' || c === ']' || c === ')';
	}
	function afterOperator(s, at) {
		while (at > 0 && s.charAt(at - 1) === ' ') {
			at--;
		}
		return at >= 8 && s.slice(at - 8, at) === 'operator';
	}
	function closing(s, at) {
		var stack = [];
		for (var i = at; i < s.length; i++) {
			var c = s.charAt(i);
			if (c === '<' || c === '(') {
				if (stack.length === 64) {
					return s.length;
				}
				stack.push(c === '<' ? '>' : ')');
			} else if (c === '>' && i > at && s.charAt(i - 1) === '-') {
				continue; // "->" inside a template argument closes nothing
			} else if (c === '>' || c === ')') {
				if (stack.length === 0 || stack[stack.length - 1] !== c) {
					return s.length;
				}
				stack.pop();
				if (stack.length === 0) {
					return i;
				}
			}
		}
		return s.length;
	}
	function shortName(s) {
		var out = '', from = 0, i = 0;
		while (i < s.length) {
			var c = s.charAt(i);
			var opens = (c === '<' || c === '(') && i > 0 && isWord(s.charAt(i - 1)) &&
			            !afterOperator(s, i);
			var end = opens ? closing(s, i) : s.length;
			if (!opens || end === s.length || Array.from(s.slice(i + 1, end)).length < 2) {
				i++;
				continue;
			}
			out += s.slice(from, i + 1) + '\u2026' + s.charAt(end);
			i = from = end + 1;
		}
		return out + s.slice(from);
	}

	// The label rule of the C code (layout_label, docs/pictures.md#labels):
	// 0.6 em per character, padding on both sides, the change suffix kept
	// while the name is cut first, "\u2026" where it is cut, a percentage
	// alone when no three characters of the name fit beside it, nothing
	// when fewer than three characters fit. Perf's _[k] suffixes are dropped.
	function fit(name, width, suffix) {
		var roomChars = (width - 2 * pad) / cw;
		if (!(roomChars >= 3)) {
			return '';
		}
		var room = Math.floor(roomChars);
		var bare = name.replace(/_\[[kjiw]\]$/, '');
		var chars = Array.from(bare);
		var n = chars.length, s = suffix.length, keep;
		if ((s > 0 ? n + 1 + s : n) > room) {
			bare = shortName(bare);
			chars = Array.from(bare);
			n = chars.length;
		}
		if (s > 0 && n + 1 + s <= room) {
			return bare + ' ' + suffix;
		}
		if (s > 0 && room >= s + 2 + 3) {
			keep = room - s - 2;
		} else if (s > 0 && s <= room && suffix.charAt(s - 1) === '%') {
			return suffix;
		} else {
			s = 0;
			keep = n <= room ? n : room - 1;
		}
		if (keep < 3 && keep < n) {
			return '';
		}
		var cut = keep === n ? bare
		        : truncateLeft ? '\u2026' + chars.slice(n - keep).join('')
		                       : chars.slice(0, keep).join('') + '\u2026';
		return s > 0 ? cut + ' ' + suffix : cut;
	}

	// The change word a label ends with: by the frame's colour class and
	// the --color-by count, as numfmt_label_change writes it.
	var colorBySelf = svg.getAttribute('data-color-by') !== 'total';
	var suffixes = new Array(n);
	function suffixOf(i) {
		var s = suffixes[i];
		if (s === undefined) {
			suffixes[i] = s = labelSuffix(i);
		}
		return s;
	}
	function labelSuffix(i) {
		var st = els[i].getAttribute('data-status');
		if (!differential || (st !== 'slower' && st !== 'faster')) {
			return differential && (st === 'new' || st === 'removed') ? st : '';
		}
		var b = colorBySelf ? baseSelf[i] : base[i], h = colorBySelf ? headSelf[i] : head[i];
		var ob = colorBySelf ? base[i] : baseSelf[i], oh = colorBySelf ? head[i] : headSelf[i];
		// Named when the other count changed the other way (label_suffix).
		var lead = (h - b) * (oh - ob) < 0 ? (colorBySelf ? 'self ' : 'total ') : '';
		return lead + changeWord(b, h);
	}
	function changeWord(b, h) {
		if (b === 0) {
			return h > 0 ? 'new' : '0%';
		}
		if (h === 0) {
			return 'removed';
		}
		var x = (h - b) / b * 100, digits = Math.abs(x) >= 10 ? 0 : 1;
		var m = Math.round(Math.abs(x) * Math.pow(10, digits)) / Math.pow(10, digits);
		var t = m.toFixed(digits), dot = t.indexOf('.');
		var whole = (dot < 0 ? t : t.slice(0, dot)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
		var sign = Number(t) === 0 ? '' : x < 0 ? '-' : '+';
		return sign + whole + (dot < 0 ? '' : t.slice(dot)) + '%';
	}

	function round1(v) {
		return String(Math.round(v * 10) / 10);
	}

	// Label colour of a fill that had no label before: black or white, the
	// one with more contrast (the C side writes the colour when it labels).
	// Unlabelled frames are written as a bare text element (no position,
	// no colour), so those are filled in on first use.
	function inkFor(fill) {
		var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill || '');
		if (!m) {
			return null;
		}
		var l = 0, w = [0.2126, 0.7152, 0.0722];
		for (var k = 0; k < 3; k++) {
			var c = parseInt(m[k + 1], 16) / 255;
			c = c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
			l += w[k] * c;
		}
		return 1.05 / (l + 0.05) > (l + 0.05) / 0.05 ? '#ffffff' : '#000000';
	}

	function setLabel(i, s) {
		var t = texts[i];
		if (labels[i] === null) {
			labels[i] = t.textContent;
			orig[i] = labels[i];
		}
		if (labels[i] === s) {
			return;
		}
		if (s && !placed[i]) {
			placed[i] = 1;
			t.setAttribute('x', round1(cx[i] + pad));
			t.setAttribute('y', round1(oy[i] + labelDy));
			// A rect without a fill takes its group's: the frames' group,
			// or a run of frames that share a fill.
			t.setAttribute('fill', inkFor(fills[i] || els[i].parentNode.getAttribute('fill')));
		}
		t.textContent = s;
		labels[i] = s;
	}

	function place(i, x, w) {
		if (cx[i] !== x) {
			var sx = round1(x);
			rects[i].setAttribute('x', sx);
			if (placed[i]) {
				texts[i].setAttribute('x', round1(x + pad));
			}
			cx[i] = x;
		}
		if (cwid[i] !== w) {
			rects[i].setAttribute('width', round1(w));
			cwid[i] = w;
		}
	}

	function show(i, on) {
		if (hidden[i] === (on ? 0 : 1)) {
			return;
		}
		hidden[i] = on ? 0 : 1;
		if (on) {
			els[i].removeAttribute('display');
			els[i].classList.remove('hide');
		} else {
			els[i].setAttribute('display', 'none');
			els[i].classList.add('hide');
		}
	}

	function display(el, on) {
		if (!el) {
			return;
		}
		if (on) {
			el.removeAttribute('display');
		} else {
			el.setAttribute('display', 'none');
		}
	}

	var view = widths;
	var zoomed = null, term = null, caseSensitive = false, matchedPercent = null;
	var matchedZoomPercent = null;

	// Zoom moves the frames with one transform on their group and clips the
	// group to the graph: frames outside the zoomed column leave the picture
	// without being touched. Rewriting the geometry or display of every
	// frame made chromium restyle 50,000 elements (about a second); now only
	// the frames that get a label, or whose written coordinates are not
	// precise enough at this scale, are written, in screen coordinates under
	// a transform that undoes the group's.
	var MAX_SCALE = 1000; // past it, floats in the composed matrix drift
	var EXACT_SCALE = 4; // below it, 0.1 px of written rounding stays under 0.4 px
	var NS = 'http://www.w3.org/2000/svg';
	// The transform a frame drawn in screen coordinates carries; null when
	// the frame is as written.
	var undo = new Array(n).fill(null);
	var clipRect = null, clipId = null;

	function clipTo(x, w) {
		if (!clipRect) {
			var cp = document.createElementNS(NS, 'clipPath');
			clipId = prefix + 'clip';
			for (var k = 2; document.getElementById(clipId); k++) {
				clipId = prefix + 'clip' + k;
			}
			cp.setAttribute('id', clipId);
			clipRect = document.createElementNS(NS, 'rect');
			clipRect.setAttribute('y', '0');
			clipRect.setAttribute('height', String(num('height') || 1e6));
			cp.appendChild(clipRect);
			group.parentNode.insertBefore(cp, group);
		}
		change(clipRect, 'x', String(x));
		change(clipRect, 'width', String(w));
		change(group, 'clip-path', 'url(#' + clipId + ')');
	}

	// Writes an attribute only when its value changes: chromium repaints
	// the graph on any write.
	function change(el, name, v) {
		if (el.getAttribute(name) !== v) {
			el.setAttribute(name, v);
		}
	}

	// Back to the view's unzoomed geometry and label: in the written view,
	// those the file was written with.
	function asWritten(i) {
		if (undo[i] !== null) {
			undo[i] = null;
			els[i].removeAttribute('transform');
		}
		// Both write only what changes (a toggle back to the written view
		// must undo what the other view placed).
		place(i, vx[i], vw[i]);
		if (view !== widths && !vhide[i]) {
			setLabel(i, labelAt(i, vw[i]));
		} else if (labels[i] !== null) {
			setLabel(i, orig[i]);
		}
		show(i, !vhide[i]);
	}

	function inScreen(i, t, x, w, label) {
		if (undo[i] !== t) {
			els[i].setAttribute('transform', t);
			undo[i] = t;
		}
		place(i, x, w);
		setLabel(i, label);
		show(i, true);
	}

	// The label a frame gets at width w; reads its name only when it may fit.
	function labelAt(i, w) {
		return (w - 2 * pad) / cw >= 3 ? fit(nameOf(i), w, suffixOf(i)) : '';
	}

	function zoom(z, keepHash) {
		z = z === null || z === undefined ? 0 : Number(z);
		if (!(z >= 0 && z < n) || Math.floor(z) !== z) {
			return false;
		}
		if (z === 0 || !group) {
			return reset(keepHash);
		}
		if (!(basis[z] > 0)) {
			return false; // not in this view: nothing to zoom into
		}
		var onPath = new Uint8Array(n);
		for (var a = parent[z]; a >= 0; a = parent[a]) {
			onPath[a] = 1;
		}
		var s = basis[z] > 0 ? gw / basis[z] : 0;
		var pps = basis[0] > 0 ? gw / basis[0] : 0;
		var k = pps > 0 ? s / pps : 1;
		var kk = Math.min(k, MAX_SCALE);
		// The group maps x to kk * x + e, the middle of z onto the middle
		// of the graph; with kk = k, z's column fills the graph exactly.
		var mid = gx + (start[z] + basis[z] / 2) * pps;
		var e = gx + gw / 2 - kk * mid;
		var exact = k > EXACT_SCALE;
		var t = 'matrix(' + 1 / kk + ' 0 0 1 ' + -e / kk + ' 0)';
		var stop = end[z];
		for (var i = 0; i < n; i++) {
			if (vhide[i] && !onPath[i] && i !== z) {
				show(i, false);
			} else if (i >= z && i < stop) {
				var w = basis[i] * s;
				var label = labelAt(i, w);
				if (label || exact) {
					inScreen(i, t, gx + (start[i] - start[z]) * s, w, label);
				} else {
					asWritten(i);
				}
			} else if (onPath[i]) {
				inScreen(i, t, gx, gw, labelAt(i, gw));
			} else {
				// Moved off the graph by the group's transform, or hidden
				// here when rounding (or a capped scale) leaves it inside.
				var left = kk * vx[i] + e, right = kk * (vx[i] + vw[i]) + e;
				if (right > gx + 0.05 && left < gx + gw - 0.05) {
					show(i, false);
				} else {
					asWritten(i);
				}
			}
		}
		change(group, 'transform', 'matrix(' + kk + ' 0 0 1 ' + e + ' 0)');
		clipTo((gx - e) / kk, gw / kk);
		zoomed = z;
		display(resetButton, true);
		showMatched();
		display(markers, false);
		display(capped, false);
		if (!keepHash) {
			writeHash(true);
		}
		return true;
	}

	function reset(keepHash) {
		for (var i = 0; i < n; i++) {
			asWritten(i);
		}
		if (group) {
			group.removeAttribute('transform');
			group.removeAttribute('clip-path');
		}
		zoomed = null;
		display(resetButton, false);
		showMatched();
		display(markers, view === widths);
		display(capped, view === widths);
		if (!keepHash) {
			writeHash(true);
		}
		return true;
	}

	// The view toggle: every frame re-laid out from its counts under the
	// chosen basis. Widths in samples; a frame starts where the frames
	// before it among its siblings end (frames pruned in every basis are
	// not in the file, so their share is left at the parent's right end).
	// The written basis takes back the file's own geometry exactly.
	var VIEWS = ['head', 'base', 'union'];
	var viewButtons = [];

	function layoutView(v) {
		var i;
		if (v === widths) {
			start.set(writtenStart);
			for (i = 0; i < n; i++) {
				basis[i] = basisOf(base[i], head[i]);
				vx[i] = ox[i];
				vw[i] = ow[i];
				vhide[i] = fileHidden[i];
			}
			return;
		}
		var cursor = new Float64Array(n);
		for (i = 0; i < n; i++) {
			basis[i] = basisOf(base[i], head[i], v);
		}
		var pps = basis[0] > 0 ? gw / basis[0] : 0;
		start[0] = 0;
		cursor[0] = 0;
		for (i = 1; i < n; i++) {
			var p = parent[i];
			start[i] = cursor[p];
			cursor[p] += basis[i];
			cursor[i] = start[i];
		}
		for (i = 0; i < n; i++) {
			vx[i] = gx + start[i] * pps;
			vw[i] = basis[i] * pps;
			vhide[i] = basis[i] > 0 ? 0 : 1;
		}
	}

	function setView(v, keepHash) {
		if (!differential || VIEWS.indexOf(v) < 0) {
			return false;
		}
		if (v !== view) {
			view = v;
			layoutView(v);
			if (zoomed !== null) {
				zoom(zoomed, true);
			} else {
				reset(true);
			}
			markView();
			if (!keepHash) {
				writeHash(true);
			}
		}
		return true;
	}

	// The header's "widths: head (...)" says what the written view draws;
	// another view rewrites it to that view's name, without the written
	// view's note in parentheses (which may wrap onto the next lines). Only
	// at a line's start or after " · ", where the caption puts it, never
	// inside a title or a frame name.
	var headerLines = Array.prototype.slice.call(svg.querySelectorAll('g.header > text'));
	var headerText = headerLines.map(function (t) {
		return t.textContent;
	});

	function markHeader() {
		var at = -1, m = null;
		for (var k = 0; k < headerText.length && at < 0; k++) {
			m = /(^| \u00b7 )widths: (head|base|union)( \()?/.exec(headerText[k]);
			at = m ? k : -1;
		}
		if (at < 0) {
			return;
		}
		headerLines.forEach(function (t, k) {
			t.textContent = headerText[k];
		});
		if (view === widths) {
			return;
		}
		var line = headerText[at];
		var after = line.slice(m.index + m[0].length);
		if (m[3]) {
			var close = after.indexOf(')');
			for (var j = at + 1; close < 0 && j < headerText.length; j++) {
				close = headerText[j].indexOf(')');
				headerLines[j].textContent = close < 0 ? '' : headerText[j].slice(close + 1).replace(/^ \u00b7 /, '');
			}
			after = close < 0 || j > at + 1 ? '' : after.slice(close + 1);
		}
		headerLines[at].textContent = line.slice(0, m.index + m[1].length) + 'widths: ' + view + ' (view)' + after;
	}

	function markView() {
		markHeader();
		viewButtons.forEach(function (b) {
			var on = b.getAttribute('data-view') === view;
			b.setAttribute('font-weight', on ? 'bold' : 'normal');
			b.setAttribute('text-decoration', on ? 'underline' : 'none');
			b.setAttribute('aria-pressed', on ? 'true' : 'false');
		});
	}

	// Three text buttons left of Search, made like it (font, size, baseline).
	function makeViewButtons() {
		if (!differential || !searchButton) {
			return;
		}
		var right = parseFloat(searchButton.getAttribute('x')) - 8 * cw;
		for (var k = VIEWS.length - 1; k >= 0; k--) {
			var b = searchButton.cloneNode(false);
			b.setAttribute('class', 'view-toggle');
			b.setAttribute('data-view', VIEWS[k]);
			b.setAttribute('role', 'button');
			b.setAttribute('x', String(Math.round(right * 10) / 10));
			b.removeAttribute('display');
			b.textContent = VIEWS[k];
			searchButton.parentNode.insertBefore(b, searchButton);
			viewButtons.push(b);
			right -= (VIEWS[k].length + 2) * cw;
		}
		markView();
	}

	function restoreFill(i) {
		if (fills[i] === null) {
			rects[i].removeAttribute('fill');
		} else {
			rects[i].setAttribute('fill', fills[i]);
		}
	}

	function clearSearch(keepHash) {
		dropPending();
		for (var i = 0; i < n; i++) {
			if (matches[i]) {
				matches[i] = 0;
				restoreFill(i);
				els[i].classList.remove('match');
			}
		}
		term = null;
		matchedPercent = matchedZoomPercent = null;
		display(matched, false);
		if (!keepHash) {
			writeHash();
		}
	}

	// Highlights frames whose name matches; the matched share counts the
	// head samples of a match once, not again for matches nested inside it.
	function search(re, cs, keepHash) {
		if (re === null || re === undefined || re === '') {
			clearSearch(keepHash);
			return true;
		}
		var rx;
		try {
			rx = new RegExp(String(re), cs ? '' : 'i');
		} catch (e) {
			return false;
		}
		dropPending();
		caseSensitive = !!cs;
		if (caseToggle) {
			caseToggle.textContent = caseSensitive ? 'Cc' : 'ic';
		}
		var sum = 0, covered = 0;
		for (var i = 0; i < n; i++) {
			var hit = rx.test(nameOf(i)) ? 1 : 0;
			if (hit && i >= covered) {
				sum += head[i];
				covered = end[i];
			}
			if (hit !== matches[i]) {
				matches[i] = hit;
				if (hit) {
					rects[i].setAttribute('fill', searchFill);
				} else {
					restoreFill(i);
				}
				els[i].classList.toggle('match', !!hit);
			}
		}
		term = String(re);
		matchedPercent = head[0] > 0 ? Math.round(sum / head[0] * 1000) / 10 : 0;
		showMatched();
		if (!keepHash) {
			writeHash();
		}
		return true;
	}

	// The share of the zoomed frame's head samples in matching frames (all
	// of them when the frame or an ancestor matches), each counted once.
	function zoomedShare(z) {
		for (var a = z; a >= 0; a = parent[a]) {
			if (matches[a]) {
				return 100;
			}
		}
		var sum = 0;
		for (var i = z + 1; i < end[z]; i++) {
			if (matches[i]) {
				sum += head[i];
				i = end[i] - 1;
			}
		}
		return head[z] > 0 ? Math.round(sum / head[z] * 1000) / 10 : 0;
	}

	// "Matched: N%" of the whole graph; zoomed, of the zoomed frame too,
	// since the frames in view are then a part of the whole.
	function showMatched() {
		matchedZoomPercent = term !== null && zoomed !== null ? zoomedShare(zoomed) : null;
		if (!matched || term === null) {
			return;
		}
		matched.textContent = matchedZoomPercent === null
			? 'Matched: ' + matchedPercent.toFixed(1) + '%'
			: 'Matched: ' + matchedZoomPercent.toFixed(1) + '% of the zoomed frame, ' +
			  matchedPercent.toFixed(1) + '% of all';
		display(matched, true);
	}

	// A search that arrives with a link (the URL hash) is a pattern someone
	// else wrote. A regular expression such as ^([\w:_-]+)*#$ backtracks for
	// minutes on a long name and would hang the page as it opens, so a link's
	// pattern waits for a click on "Search from link: ...". A plain word, with
	// no regular expression syntax, cannot backtrack and runs at once.
	var pending = null, linkPrompt = null;

	function isPlain(re) {
		return !/[\\^$.|?*+()[\]{}]/.test(re);
	}

	function showPending(re, cs) {
		pending = {re: re, cs: cs};
		if (!linkPrompt && matched) {
			linkPrompt = matched.cloneNode(false);
			linkPrompt.setAttribute('class', 'link-search');
			linkPrompt.setAttribute('style', 'cursor: pointer');
			matched.parentNode.insertBefore(linkPrompt, matched.nextSibling);
		}
		if (linkPrompt) {
			var shown = re.length > 40 ? re.slice(0, 39) + '\u2026' : re;
			linkPrompt.textContent = 'Search from link: ' + shown + ' \u2014 click to run';
			display(linkPrompt, true);
			pinControls();
		}
	}

	function dropPending() {
		pending = null;
		display(linkPrompt, false);
	}

	function linkSearch(re, cs) {
		try {
			new RegExp(re); // compiling never backtracks; an invalid one is ignored
		} catch (e) {
			return;
		}
		if (re === '' || isPlain(re)) {
			search(re, cs, true);
		} else {
			clearSearch(true);
			showPending(re, cs);
		}
	}

	function hashState() {
		var parts = [];
		if (view !== widths) {
			parts.push('view=' + view);
		}
		if (zoomed !== null) {
			parts.push('zoom=' + zoomed);
		}
		if (term !== null) {
			parts.push('search=' + encodeURIComponent(term));
			if (caseSensitive) {
				parts.push('case=1');
			}
		} else if (pending) {
			// Not run yet, but still part of what the link shares.
			parts.push('search=' + encodeURIComponent(pending.re));
			if (pending.cs) {
				parts.push('case=1');
			}
		}
		return parts.length ? '#' + prefix + parts.join('&') : '';
	}

	var OWN_ENTRY = {difffold: prefix};

	// A zoom is a step of its own in the history (push: Back undoes it); a
	// search only rewrites the current entry.
	function writeHash(push) {
		var h = hashState();
		var marked = h === '' || push || (history.state && history.state.difffold === prefix);
		if ((location.hash === h || (h === '' && location.hash === '#')) && marked) {
			return;
		}
		try {
			var url = h || location.pathname + location.search;
			// The mark tells the entries written here from a link followed
			// in the tab (popstate below).
			if (push) {
				history.pushState(OWN_ENTRY, '', url);
			} else {
				history.replaceState(OWN_ENTRY, '', url);
			}
		} catch (e) {
			location.hash = h;
		}
	}

	function readHash() {
		var h = location.hash;
		if (h.indexOf('#' + prefix) !== 0 || !prefix) {
			return;
		}
		var st = {};
		h.slice(1 + prefix.length).split('&').forEach(function (kv) {
			var eq = kv.indexOf('=');
			if (eq > 0) {
				st[kv.slice(0, eq)] = kv.slice(eq + 1);
			}
		});
		if (st.search !== undefined) {
			try {
				linkSearch(decodeURIComponent(st.search), st['case'] === '1');
			} catch (e) {
				// a malformed hash is ignored
			}
		}
		if (st.view !== undefined) {
			setView(st.view, true);
		}
		if (st.zoom !== undefined && /^[0-9]+$/.test(st.zoom)) {
			zoom(parseInt(st.zoom, 10), true);
		}
	}

	function fmt(v) {
		var r = Math.round(v * 100) / 100;
		var parts = String(Math.abs(r)).split('.');
		var s = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
		return (r < 0 ? '-' : '') + s + (parts[1] ? '.' + parts[1] : '');
	}
	function signed(v, digits, unit) {
		var s = v.toFixed(digits);
		if (Number(s) === 0) {
			s = (0).toFixed(digits);
		}
		return (v > 0 && Number(s) !== 0 ? '+' : '') + s + unit;
	}
	function share(v, total) {
		return total > 0 ? (v / total * 100).toFixed(2) + '%' : '0%';
	}

	// One count's change in the words of the wording rule (docs/pictures.md):
	// "420 → 910 (+490, +116.7%, +6.14 pp)".
	function delta(b, h, top) {
		var d = h - b;
		var rel = b > 0 ? (h > 0 ? signed(d / b * 100, 1, '%') : 'removed') : (h > 0 ? 'new' : '0.0%');
		var pts = top > 0 ? signed(d / top * 100, 2, ' pp') : '0.00 pp';
		return fmt(b) + ' \u2192 ' + fmt(h) + ' (' + (d > 0 ? '+' : '') + fmt(d) + ', ' + rel + ', ' + pts + ')';
	}

	// data-interval="LO HI P" (--runs): the change in points with its
	// interval, which is symmetric around it, and Welch's p value.
	function interval(i) {
		var a = els[i].getAttribute('data-interval');
		var v = a ? a.trim().split(/\s+/).map(Number) : [];
		if (v.length !== 3 || !v.every(isFinite)) {
			return '';
		}
		var p = v[2] < 0.0001 ? 'p<0.0001' : 'p=' + v[2].toFixed(4);
		return ' \u00b7 change ' + signed((v[0] + v[1]) / 2, 2, ' pp') + ' [' + v[0].toFixed(2) +
		       ', ' + v[1].toFixed(2) + '], ' + p;
	}

	// The details line: full name, self and total change both.
	function describe(i) {
		var b = base[i], h = head[i], B = base[0], H = head[0];
		var bs = baseSelf[i], hs = headSelf[i];
		if (!differential) {
			return ' \u2014 ' + fmt(h) + ' ' + countname + ' (' + share(h, H) + ' of all)';
		}
		// A frame that only calls others: "self 0 → 0 (0, 0.0%, 0.00 pp)"
		// reads as a measured zero change, so it is said in words.
		var noSelf = !(bs > 0) && !(hs > 0);
		if (b === 0 && h > 0) {
			return ' \u2014 new: ' + (noSelf ? 'no self ' + countname : 'self ' + fmt(hs)) + ', total ' + fmt(h) +
			       ' ' + countname + interval(i);
		}
		if (h === 0 && b > 0) {
			return ' \u2014 removed: ' + (noSelf ? 'no self ' + countname : 'self ' + fmt(bs)) + ', total ' + fmt(b) +
			       ' ' + countname + ' in base' + interval(i);
		}
		var top = Math.max(B, H);
		// Colour by self: the test is of self counts, none here.
		return ' \u2014 ' + (noSelf ? 'no self ' + countname : 'self ' + delta(bs, hs, top)) + ' \u00b7 total ' +
		       delta(b, h, top) + ' ' + countname + (noSelf && colorBySelf ? '' : interval(i));
	}

	// The whole name always shows: a line wider than the graph is narrowed
	// to fit (textLength) instead of being cut.
	function showDetails(i) {
		if (!details) {
			return;
		}
		var text = i < 0 ? '' : nameOf(i) + describe(i);
		details.textContent = text;
		display(legend, !text && (typed === null || typed === undefined));
		// Room left of Matched:, which says more when zoomed.
		var beside = matched && term !== null ? matched.textContent.length + 3 : 16;
		var room = gw - Math.max(16, beside) * cw;
		if (text.length * cw > room && room > 0) {
			details.setAttribute('textLength', String(Math.round(room)));
			details.setAttribute('lengthAdjust', 'spacingAndGlyphs');
		} else {
			details.removeAttribute('textLength');
			details.removeAttribute('lengthAdjust');
		}
	}

	function frameOf(target) {
		var g = target && target.closest ? target.closest('g.frame') : null;
		return g && index.has(g) ? index.get(g) : -1;
	}

	// The search field: drawn in the SVG on the details line's place (no
	// window.prompt, no foreignObject), typed into while it is open. Enter
	// runs the pattern, Escape clears the search and closes the field.
	var field = null, typed = null;

	function drawField(note) {
		if (!field && details) {
			field = details.cloneNode(false);
			field.setAttribute('class', 'search-field');
			field.setAttribute('role', 'searchbox');
			field.removeAttribute('aria-live');
			field.removeAttribute('textLength');
			details.parentNode.insertBefore(field, details.nextSibling);
		}
		if (field) {
			field.textContent = 'Search (regular expression' + (caseSensitive ? ', case-sensitive' : '') +
			                    '): ' + typed + '\u258f' + (note || '');
			field.setAttribute('aria-label', 'Search frames: ' + typed);
			display(field, true);
		}
		display(details, false);
		pinControls();
		display(legend, false);
	}

	function openSearch() {
		typed = term || '';
		drawField('');
	}

	function closeField() {
		typed = null;
		display(field, false);
		display(details, true);
		display(legend, !details || !details.textContent);
	}

	// Keys while the field is open; true when the key was the field's.
	function fieldKey(e) {
		if (typed === null || e.ctrlKey || e.metaKey || e.altKey) {
			return false;
		}
		var key = e.key;
		if (key === 'Enter') {
			if (search(typed, caseSensitive)) {
				closeField();
			} else {
				drawField(' \u2014 not a valid regular expression');
			}
		} else if (key === 'Escape') {
			closeField();
			clearSearch();
		} else if (key === 'Backspace') {
			typed = Array.from(typed).slice(0, -1).join('');
			drawField('');
		} else if (key.length === 1 || Array.from(key).length === 1) {
			typed += key;
			drawField('');
		} else {
			return false;
		}
		return true;
	}

	var hovering = false;
	// The outline of the hovered or focused frame takes the label's ink of
	// its current fill (black on light frames, white on dark ones), so it
	// shows in both themes and on search highlights.
	function markInk(i) {
		if (i >= 0) {
			var m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(getComputedStyle(rects[i]).fill || '');
			var hex = m ? '#' + [m[1], m[2], m[3]].map(function (v) {
				return ('0' + Number(v).toString(16)).slice(-2);
			}).join('') : null;
			els[i].style.setProperty('--difffold-ink', inkFor(hex) || '#000000');
		}
	}

	svg.addEventListener('mouseover', function (e) {
		hovering = true;
		var i = frameOf(e.target);
		markInk(i);
		showDetails(i);
	});

	// Keyboard: one frame at a time is in the tab order (roving focus);
	// the arrows move as the picture looks (Up goes away from the root in
	// a flame graph, towards it in an icicle graph), Enter zooms.
	var inverted = svg.getAttribute('data-inverted') === '1';
	var focused = 0;
	if (group) {
		group.setAttribute('role', 'group');
		group.setAttribute('aria-label', 'Frames: arrow keys move, Enter zooms, Escape resets');
	}
	if (details) {
		details.setAttribute('role', 'status');
		details.setAttribute('aria-live', 'polite');
	}
	els[0].setAttribute('tabindex', '0');
	els[0].setAttribute('role', 'button');
	// Chrome makes a document's root <svg> a tab stop of its own (and a
	// click focuses it, boxed): the first Tab belongs to the frames.
	if (!svg.hasAttribute('tabindex')) {
		svg.setAttribute('tabindex', '-1');
	}

	function visible(i) {
		return !hidden[i] && (zoomed === null || (i >= zoomed && i < end[zoomed]) || end[i] > zoomed && i < zoomed);
	}

	function focusFrame(i) {
		if (i < 0 || i >= n) {
			return;
		}
		els[focused].setAttribute('tabindex', '-1');
		focused = i;
		var g = els[i];
		g.setAttribute('tabindex', '0');
		g.setAttribute('role', 'button');
		g.setAttribute('aria-label', nameOf(i) + describe(i));
		markInk(i);
		if (document.activeElement !== g) {
			g.focus();
		}
		showDetails(i);
	}

	// The next visible sibling of i in direction dir (+1 right, -1 left).
	function sibling(i, dir) {
		var p = parent[i];
		if (p < 0) {
			return -1;
		}
		var kids = [];
		for (var c = p + 1; c < end[p]; c = end[c]) {
			kids.push(c);
		}
		for (var k = kids.indexOf(i) + dir; k >= 0 && k < kids.length; k += dir) {
			if (visible(kids[k])) {
				return kids[k];
			}
		}
		return -1;
	}

	function firstChild(i) {
		for (var c = i + 1; c < end[i]; c = end[c]) {
			if (visible(c)) {
				return c;
			}
		}
		return -1;
	}

	function frameKey(e) {
		var i = frameOf(document.activeElement);
		if (i < 0 || typed !== null) {
			return false;
		}
		var key = e.key, j = -1;
		if (key === 'ArrowLeft' || key === 'ArrowRight') {
			j = sibling(i, key === 'ArrowLeft' ? -1 : 1);
		} else if (key === 'ArrowUp' || key === 'ArrowDown') {
			j = (key === 'ArrowUp') !== inverted ? firstChild(i) : parent[i];
		} else if (key === 'Enter' || key === ' ') {
			if (i === 0) {
				reset();
			} else {
				zoom(i);
			}
			focusFrame(i);
			return true;
		} else {
			return false;
		}
		focusFrame(j);
		return true;
	}

	svg.addEventListener('focusin', function (e) {
		var i = frameOf(e.target);
		if (i >= 0) {
			focusFrame(i);
		}
	});
	svg.addEventListener('keydown', function (e) {
		if (frameKey(e)) {
			e.preventDefault();
		}
	});
	svg.addEventListener('mouseleave', function () {
		hovering = false;
		showDetails(-1);
	});
	svg.addEventListener('click', function (e) {
		var t = e.target;
		if (!t || !t.closest) {
			return;
		}
		if (t.closest('.reset-zoom')) {
			reset();
		} else if (t.closest('.view-toggle')) {
			setView(t.closest('.view-toggle').getAttribute('data-view'));
		} else if (t.closest('.search-button')) {
			openSearch();
		} else if (t.closest('.link-search')) {
			if (pending) {
				search(pending.re, pending.cs);
			}
		} else if (t.closest('.case-toggle')) {
			caseSensitive = !caseSensitive;
			caseToggle.textContent = caseSensitive ? 'Cc' : 'ic';
			if (term !== null) {
				search(term, caseSensitive);
			}
		} else {
			var i = frameOf(t);
			if (i === 0) {
				reset();
			} else if (i > 0) {
				zoom(i);
			}
		}
	});
	// Keys go to this graph when it is the page, or when the pointer is on it.
	document.addEventListener('keydown', function (e) {
		if (typed === null && document.documentElement !== svg && !hovering &&
		    !svg.contains(document.activeElement)) {
			return;
		}
		if (fieldKey(e)) {
			e.preventDefault();
			e.stopImmediatePropagation();
			return;
		}
		var key = e.key;
		if (key === 'F3' || ((e.ctrlKey || e.metaKey) && (key === 'f' || key === 'F'))) {
			e.preventDefault();
			openSearch();
		} else if (key === 'Escape') {
			clearSearch(true);
			reset();
		}
	});
	// The search a hash carries (undecoded), or null.
	function hashSearch(h) {
		var s = /(?:^|&)search=([^&]*)(?:&|$)/.exec(h.slice(1 + prefix.length));
		return s ? s[1] : null;
	}

	// Back and Forward: the entry's zoom applies; the search stays as it is
	// now, and the entry is rewritten to say so. A link opened in a tab
	// that shows the file arrives this way too (before its hashchange), as
	// an entry without this script's mark: a search it brings that differs
	// from the one shown applies as on a fresh load.
	window.addEventListener('popstate', function (e) {
		var h = location.hash, m = null, v = null;
		if (h.length > 1 && (!prefix || h.indexOf('#' + prefix) !== 0)) {
			return; // another graph's entry on a shared page
		}
		if (h.length > 1) {
			m = /(?:^|&)zoom=([0-9]+)(?:&|$)/.exec(h.slice(1 + prefix.length));
			v = /(?:^|&)view=([a-z]+)(?:&|$)/.exec(h.slice(1 + prefix.length));
		}
		var own = e.state && e.state.difffold === prefix;
		var linked = h.length > 1 && !own ? hashSearch(h) : null;
		var shown = hashState();
		shown = shown.length > 1 ? hashSearch(shown) : null;
		setView(v ? v[1] : widths, true);
		if (m) {
			zoom(parseInt(m[1], 10), true);
		} else {
			reset(true);
		}
		if (linked !== null && linked !== shown) {
			try {
				linkSearch(decodeURIComponent(linked), /(?:^|&)case=1(?:&|$)/.test(h.slice(1 + prefix.length)));
			} catch (e) {
				// a malformed hash is ignored
			}
		}
		writeHash(false);
	});
	window.addEventListener('hashchange', function () {
		if (location.hash !== hashState()) {
			readHash();
		}
	});

	// The controls stay in the visible part of the window whatever the
	// scroll: on a graph taller than the window the buttons' row, then the
	// details line (with the search field, Matched: and a link's prompt)
	// slide down to the window's top once it passes them, over a band of
	// the background. Nothing moves while they are in sight, so the
	// picture is the one written.
	var controls = details ? details.parentNode : null;
	var backdrop = svg.querySelector('rect.background');
	var band = null;
	var em = num('font-size') || 12;

	function pinControls() {
		var H = num('height');
		var r = svg.getBoundingClientRect();
		if (!controls || !(r.height > 0) || !(H > 0)) {
			return;
		}
		var top = Math.min(Math.max(0, -r.top / (r.height / H)), Math.max(0, H - 4 * em));
		var lh = 1.6 * em, detailsY = parseFloat(details.getAttribute('y'));
		var buttonsY = resetButton ? parseFloat(resetButton.getAttribute('y')) : detailsY;
		var dy1 = buttonsY - em < top ? top + 1.2 * em - buttonsY : 0;
		var below = top + (dy1 > 0 ? lh : 0);
		var dy2 = detailsY - em < below ? below + 1.2 * em - detailsY : 0;
		Array.prototype.forEach.call(controls.children, function (el) {
			if (el !== band) {
				var dy = parseFloat(el.getAttribute('y')) === detailsY ? dy2 : dy1;
				if (dy > 0) {
					change(el, 'transform', 'translate(0 ' + Math.round(dy * 10) / 10 + ')');
				} else {
					el.removeAttribute('transform');
				}
			}
		});
		if (!band && (dy1 > 0 || dy2 > 0)) {
			band = document.createElementNS(svg.namespaceURI, 'rect');
			band.setAttribute('class', 'pinned-band');
			band.setAttribute('x', '0');
			band.setAttribute('width', String(num('width')));
			band.setAttribute('fill-opacity', '0.95');
			controls.insertBefore(band, controls.firstChild);
			svg.appendChild(controls); // painted over the frames from now on
		}
		if (band) {
			band.setAttribute('y', String(Math.round(top * 10) / 10));
			band.setAttribute('height', String(Math.round(((dy1 > 0) + (dy2 > 0)) * lh * 10 + 4 * em) / 10));
			band.setAttribute('fill', backdrop ? getComputedStyle(backdrop).fill : '#ffffff');
			display(band, dy1 > 0 || dy2 > 0);
		}
	}

	display(searchButton, true);
	display(caseToggle, true);
	makeViewButtons();
	readHash();
	pinControls();
	window.addEventListener('scroll', pinControls, {passive: true, capture: true});
	window.addEventListener('resize', pinControls, {passive: true});

	window.difffold = {
		zoom: function (i) {
			return zoom(i);
		},
		reset: function () {
			return reset();
		},
		search: function (re, cs) {
			return search(re, cs);
		},
		clearSearch: function () {
			clearSearch();
		},
		view: function (v) {
			return setView(v);
		},
		state: function () {
			return {zoom: zoomed, view: view, search: term, matchedPercent: matchedPercent,
			        matchedZoomPercent: matchedZoomPercent, linkSearch: pending ? pending.re : null};
		}
	};
})();
