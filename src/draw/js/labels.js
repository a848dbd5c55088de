// labels.js: the label a frame gets at a width, and writing it.
//
// The label rule of the C code (layout_label): names shortened as
// shortname.c does, the change word ("+12.5%", "new") as
// numfmt_label_change writes it, the ink (black or white) for a fill.
// Defines for the others: fit, suffixOf, changeWord, colorBySelf, inkFor,
// round1, setLabel. Uses from frames.js: the frame arrays, cw, pad,
// labelDy, differential, truncateLeft.
// One piece of the SVG's script; frames.js says how the pieces join.

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
