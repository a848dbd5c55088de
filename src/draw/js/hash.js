// hash.js: the state in the URL hash ("#PREFIXview=base&zoom=12&search=x").
//
// Writes it on each change (a zoom is a history step of its own) and
// applies it when the graph opens. Defines for the others: hashState,
// writeHash, readHash. Uses: zoom.js (view, zoomed, term,
// caseSensitive, zoom), view.js (setView), search.js (linkSearch,
// pending). Back, Forward and hash changes are history.js's.
// One piece of the SVG's script; frames.js says how the pieces join.

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
