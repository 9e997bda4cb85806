// The page: where the services are (config.json), who the demo user is (a token in the URL fragment), and tabs.

import { startRooms } from './rooms.js';
import { noIdentity, startSwipes } from './swipes.js';
import { $, toast } from './ui.js';

const TOKEN_KEY = 'kindling.swipes.token';

// ./kindling web <id> puts a signed token in the fragment, which browsers never send to a server. It is kept
// for this tab only and taken out of the address bar, so it is not bookmarked or shared by accident.
function identity() {
	const fragment = new URLSearchParams(location.hash.slice(1));
	if (fragment.has('token')) {
		sessionStorage.setItem(TOKEN_KEY, fragment.get('token'));
		history.replaceState(null, '', location.pathname + location.search);
	}
	const token = sessionStorage.getItem(TOKEN_KEY);
	if (!token) {
		return null;
	}
	try {
		const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
		if (claims.exp * 1000 < Date.now()) {
			sessionStorage.removeItem(TOKEN_KEY);
			toast('The demo token has expired: run ./kindling web <id> again.');
			return null;
		}
		return { token, userId: Number(claims.sub) };
	}
	catch (error) {
		sessionStorage.removeItem(TOKEN_KEY);
		return null;
	}
}

function showTab(name) {
	for (const tab of document.querySelectorAll('[role="tab"]')) {
		const selected = tab.getAttribute('aria-controls') === name;
		tab.setAttribute('aria-selected', String(selected));
		document.getElementById(tab.getAttribute('aria-controls')).hidden = !selected;
	}
}

async function main() {
	// a new demo link pasted into this tab changes only the fragment, which reloads nothing by itself
	window.addEventListener('hashchange', () => {
		if (new URLSearchParams(location.hash.slice(1)).has('token')) {
			location.reload();
		}
	});
	for (const tab of document.querySelectorAll('[role="tab"]')) {
		tab.addEventListener('click', () => showTab(tab.getAttribute('aria-controls')));
	}
	const config = await (await fetch('config.json')).json();
	startRooms(config);
	const user = identity();
	if (user) {
		startSwipes(config, user, showTab);
	}
	else {
		noIdentity();
	}
	document.body.dataset.ready = 'true';
}

main();
