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
