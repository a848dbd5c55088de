// details.js: the details line, what hover or focus says of a frame.
//
// The full name with its counts and changes in the wording rule of
// docs/pictures.md, narrowed to fit the graph. Defines for the others:
// describe, showDetails. Uses: frames.js's counts, labels.js
// (colorBySelf), zoom.js (display, term), input.js (typed).
// One piece of the SVG's script; frames.js says how the pieces join.

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
