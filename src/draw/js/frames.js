// difffold: hover details, zoom and search for the SVG flame graph.
//
// Everything this script needs is read from the document it sits in: frame
// names from each frame's title element, counts from its data- attributes, the
// geometry rules from data- attributes of the root svg element. No frame name is
// ever part of this file. One listener per event type on the root element
// serves every frame, search writes only the fills that change, and zoom moves
// the frames with one transform (see zoom.js), so graphs of 50,000 frames
// stay smooth.
//
// The script is one function written as several files, one job each,
// which src/draw/embed.py joins in the order src/meson.build lists them:
// that order is the order the statements run in, and no file runs alone.
// The pieces share this function's variables; each file's header says
// what it defines for the others and what it uses of theirs. Functions
// are hoisted, so a piece may call one a later piece defines; a var is
// set only when its piece's statements have run.
//
// frames.js: finds the svg, reads the graph's settings from its data-
// attributes and every frame once (geometry, counts, the tree from
// pre-order and depth) into arrays indexed by frame number (els, rects,
// texts, base, head, parent, end...), which every other piece uses.
// Opens the function start.js closes.
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
