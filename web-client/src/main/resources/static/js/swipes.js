// Swipes as a demo user: the deck, likes, passes, super likes, rewind, boosts, and matches pushed to both people.

import { ApiError, call, uniqueKey } from './api.js';
import { composer, messageList, showMessage } from './chat.js';
import { openStream } from './stream.js';
import { $, avatar, el, logActivity, showStreamState, time, toast } from './ui.js';

export function startSwipes(config, identity, showTab) {
	const base = config.swipe_url;
	const api = (path, options = {}) => call(base, path, { token: identity.token, ...options });
	const profiles = new Map();
	const shownMatches = new Set();
	let cards = [];
	let loading = null;
	let nextCursor = null;
	// the match whose conversation is open, with its list of messages
	let thread = null;

	async function profile(userId) {
		if (!profiles.has(userId)) {
			profiles.set(userId, api(`/api/profiles/${userId}`).catch(() => ({ user_id: userId, display_name: `User ${userId}` })));
		}
		return profiles.get(userId);
	}

	// --- the deck ---------------------------------------------------------------------------------------

	async function fillDeck(fresh = false) {
		if (fresh) {
			cards = [];
		}
		loading ??= api('/api/deck?limit=20')
			.then((answer) => {
				const known = new Set(cards.map((card) => card.user_id));
				cards.push(...answer.cards.filter((card) => !known.has(card.user_id)));
				for (const card of answer.cards) {
					profiles.set(card.user_id, Promise.resolve(card));
				}
			})
			.catch((error) => {
				if (error instanceof ApiError && error.status === 404) {
					$('#deck-body').replaceChildren(el('p', { class: 'card' },
						`User ${identity.userId} has no profile yet. Run ./kindling seed-data --demo and open ./kindling web 1.`));
					throw error;
				}
				toast(error.message);
			})
			.finally(() => {
				loading = null;
			});
		await loading;
		renderDeck();
	}

	function renderDeck() {
		const card = cards[0];
		$('#deck-actions').hidden = !card;
		if (!card) {
			$('#deck-body').replaceChildren(el('div', { class: 'card', id: 'deck-empty' },
				el('p', { class: 'name' }, 'No one new nearby'),
				el('p', { class: 'muted' }, 'Come back later, or rewind your last swipe.')));
			$('#deck-actions').hidden = false;
			for (const id of ['#pass', '#like', '#super-like']) {
				$(id).disabled = true;
			}
			return;
		}
		for (const id of ['#pass', '#like', '#super-like']) {
			$(id).disabled = false;
		}
		const distance = card.distance_km === null || card.distance_km === undefined ? '' : ` · ${card.distance_km} km away`;
		$('#deck-body').replaceChildren(el('article', { class: 'card', 'data-user-id': card.user_id },
			avatar(card.display_name, card.user_id),
			el('p', { class: 'name' }, card.display_name),
			el('p', { class: 'muted' }, `${card.age}${distance}`),
			el('div', { class: 'badges' },
				card.super_liked_you ? el('span', { class: 'badge super' }, '★ Super liked you') : null,
				card.boosted ? el('span', { class: 'badge boosted' }, '⚡ Boosted') : null),
			el('p', { class: 'muted up-next' }, cards.length > 1 ? `${cards.length - 1} more in your deck` : 'Last card for now')));
	}

	async function swipe(action) {
		const card = cards[0];
		if (!card) {
			return;
		}
		setBusy(true);
		try {
			const answer = await api('/api/swipes', {
				method: 'POST',
				headers: { 'Idempotency-Key': uniqueKey() },
				body: { target_user_id: card.user_id, action },
			});
			cards.shift();
			if (answer.matched) {
				showMatch({ match_id: answer.match_id, user_id: card.user_id, matched_at: answer.matched_at });
			}
			if (cards.length < 3) {
				await fillDeck();
			}
			renderDeck();
		}
		catch (error) {
			toast(error.message);
		}
		finally {
			setBusy(false);
		}
	}

	function setBusy(busy) {
		for (const id of ['#pass', '#like', '#super-like', '#rewind']) {
			$(id).disabled = busy;
		}
	}

	async function rewind() {
		try {
			await api('/api/swipes/last', { method: 'DELETE' });
			toast('Your last swipe is undone.');
			// a rewind drops the stored deck, so the person rewound can come back
			await fillDeck(true);
		}
		catch (error) {
			toast(error.message);
		}
	}

	async function boost() {
		try {
			const answer = await api('/api/boosts', { method: 'POST' });
			$('#boost-status').textContent = `Boosted until ${time(answer.expires_at)}`;
		}
		catch (error) {
			toast(error.message);
		}
	}

	// --- matches ----------------------------------------------------------------------------------------

	async function showMatch(match) {
		if (shownMatches.has(match.match_id)) {
			return;
		}
		shownMatches.add(match.match_id);
		const other = await profile(match.user_id);
		const dialog = $('#match-dialog');
		dialog.dataset.matchId = match.match_id;
		$('#match-text').textContent = `You and ${other.display_name} like each other.`;
		if (!dialog.open) {
			dialog.showModal();
		}
		loadMatches(true);
	}

	async function loadMatches(fresh) {
		const cursor = fresh ? '' : (nextCursor ?? '');
		try {
			const answer = await api(`/api/matches?limit=20&cursor=${encodeURIComponent(cursor)}`);
			const items = await Promise.all(answer.matches.map(matchItem));
			if (fresh) {
				$('#match-list').replaceChildren(...items);
			}
			else {
				$('#match-list').append(...items);
			}
			nextCursor = answer.next_cursor;
			$('#more-matches').hidden = !nextCursor;
			$('#matches-empty').hidden = $('#match-list').children.length > 0;
		}
		catch (error) {
			toast(error.message);
		}
	}

	async function matchItem(match) {
		const other = await profile(match.user_id);
		const last = el('span', { class: 'last muted' }, lastLine(match.last_message));
		const unread = el('span', { class: 'unread', 'data-unread': match.unread_count }, String(match.unread_count));
		unread.hidden = match.unread_count === 0;
		const item = el('li', { 'data-match-id': match.match_id, 'data-user-id': match.user_id },
			avatar(other.display_name, match.user_id),
			el('button', { class: 'who', onclick: () => openThread(match) }, el('strong', {}, other.display_name),
				last, el('span', { class: 'muted' }, `matched at ${time(match.matched_at)}`)),
			unread,
			el('button', { class: 'unmatch', onclick: () => unmatch(match, item) }, 'Unmatch'));
		return item;
	}

	function lastLine(message) {
		if (!message) {
			return 'Say hello';
		}
		return `${message.from_user_id === identity.userId ? 'You: ' : ''}${message.text}`;
	}

	// The list's line of a match, brought up to date with a message it did not show yet.
	function listed(message, unreadDelta) {
		const item = document.querySelector(`#match-list li[data-match-id="${message.match_id}"]`);
		if (!item) {
			loadMatches(true);
			return;
		}
		item.querySelector('.last').textContent = lastLine(message);
		const unread = item.querySelector('.unread');
		const count = Number(unread.dataset.unread) + unreadDelta;
		unread.dataset.unread = count;
		unread.textContent = String(count);
		unread.hidden = count === 0;
	}

	// --- a match's conversation -------------------------------------------------------------------------

	async function openThread(match) {
		const other = await profile(match.user_id);
		const list = messageList('thread-messages');
		thread = { matchId: match.match_id, other, list };
		$('#thread').dataset.matchId = match.match_id;
		$('#thread-title').textContent = other.display_name;
		$('#thread-body').replaceChildren(list, composer('thread-composer', (text) => send(match.match_id, text)));
		$('#match-index').hidden = true;
		$('#thread').hidden = false;
		try {
			const page = await api(`/api/matches/${match.match_id}/messages?limit=50`);
			for (const message of page.messages.slice().reverse()) {
				show(message);
			}
			if (page.messages.length > 0) {
				await markRead(match.match_id, page.messages[0].message_id);
			}
		}
		catch (error) {
			toast(error.message);
		}
	}

	function closeThread() {
		thread = null;
		$('#thread').hidden = true;
		$('#match-index').hidden = false;
	}

	function show(message) {
		if (!thread || thread.matchId !== message.match_id) {
			return;
		}
		const mine = message.from_user_id === identity.userId;
		showMessage(thread.list, { id: message.message_id, mine, who: mine ? 'You' : thread.other.display_name,
			text: message.text, at: message.sent_at });
	}

	async function send(matchId, text) {
		const message = await api(`/api/matches/${matchId}/messages`, {
			method: 'POST',
			body: { text, client_message_id: uniqueKey() },
		});
		show(message);
		listed(message, 0);
		return true;
	}

	async function markRead(matchId, messageId) {
		await api(`/api/matches/${matchId}/read`, { method: 'POST', body: { message_id: messageId } });
		clearUnread(matchId);
	}

	function clearUnread(matchId) {
		const unread = document.querySelector(`#match-list li[data-match-id="${matchId}"] .unread`);
		if (unread) {
			unread.dataset.unread = 0;
			unread.textContent = '0';
			unread.hidden = true;
		}
	}

	async function unmatch(match, item) {
		try {
			await api(`/api/matches/${match.match_id}`, { method: 'DELETE' });
			item.remove();
			$('#matches-empty').hidden = $('#match-list').children.length > 0;
		}
		catch (error) {
			toast(error.message);
		}
	}

	async function pushed(name, data) {
		if (name === 'message_created') {
			messaged(data);
			return;
		}
		if (name === 'message_read') {
			if (data.reader_user_id === identity.userId) {
				// read on another device of mine
				clearUnread(data.match_id);
			}
			else {
				logActivity('Your messages were read', { event: name, 'match-id': data.match_id });
			}
			return;
		}
		const match = data;
		const other = await profile(match.user_id);
		if (name === 'match_created') {
			logActivity(`New match with ${other.display_name}`, { event: name, 'match-id': match.match_id });
			showMatch(match);
		}
		else {
			logActivity(`${other.display_name} and you are no longer matched`, { event: name, 'match-id': match.match_id });
			document.querySelector(`#match-list li[data-match-id="${match.match_id}"]`)?.remove();
			$('#matches-empty').hidden = $('#match-list').children.length > 0;
			if (thread?.matchId === match.match_id) {
				closeThread();
				toast(`${other.display_name} and you are no longer matched.`);
			}
		}
	}

	async function messaged(message) {
		const mine = message.from_user_id === identity.userId;
		if (!mine) {
			const other = await profile(message.from_user_id);
			logActivity(`New message from ${other.display_name}`, { event: 'message_created', 'match-id': message.match_id });
		}
		if (thread?.matchId === message.match_id) {
			show(message);
			listed(message, 0);
			if (!mine) {
				markRead(message.match_id, message.message_id).catch((error) => toast(error.message));
			}
			return;
		}
		listed(message, mine ? 0 : 1);
	}

	const pageOpened = Date.now();

	async function catchUp() {
		const answer = await api('/api/matches?limit=20').catch(() => ({ matches: [] }));
		for (const match of answer.matches) {
			if (Date.parse(match.matched_at) >= pageOpened) {
				showMatch(match);
			}
		}
	}

	// --- wiring -----------------------------------------------------------------------------------------

	$('#pass').addEventListener('click', () => swipe('PASS'));
	$('#like').addEventListener('click', () => swipe('LIKE'));
	$('#super-like').addEventListener('click', () => swipe('SUPER_LIKE'));
	$('#rewind').addEventListener('click', rewind);
	$('#boost').addEventListener('click', boost);
	$('#more-matches').addEventListener('click', () => loadMatches(false));
	$('#thread-back').addEventListener('click', closeThread);
	$('#match-close').addEventListener('click', () => $('#match-dialog').close());
	$('#match-show').addEventListener('click', () => {
		$('#match-dialog').close();
		showTab('matches');
	});

	const stream = openStream({
		issueTicket: () => api('/api/events/tickets', { method: 'POST' }),
		url: `${base}/api/events`,
		events: ['match_created', 'match_removed', 'message_created', 'message_read'],
		onEvent: pushed,
		onState: (state, opens) => {
			showStreamState('#swipes-live', state, opens);
			// a stream that got no event yet reconnects without an id, so a match made in the gap is read once
			if (state === 'live' && opens > 1) {
				catchUp();
			}
		},
	});
	stream.ready.catch((error) => toast(`Match pushes are off: ${error.message}`));
	profile(identity.userId).then((me) => {
		$('#who').textContent = `${me.display_name} (user ${identity.userId})`;
	});
	fillDeck().catch(() => {});
	loadMatches(true);
}

// Shown in place of the deck and the matches when the page has no demo user's token.
export function noIdentity() {
	const hint = () => el('div', { class: 'card' },
		el('p', { class: 'name' }, 'Swipes need a demo user'),
		el('p', {}, 'In a terminal: ./kindling seed-data --demo, then open the address ./kindling web 1 prints.'),
		el('p', { class: 'muted' }, 'Rooms need no account.'));
	$('#deck-body').replaceChildren(hint());
	$('#boost').disabled = true;
	$('#match-list').replaceChildren(el('li', {}, hint()));
}
