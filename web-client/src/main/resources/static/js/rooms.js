// Rooms: an anonymous session, a topic and a size, a wait, and the room pushed the moment it forms.

import { ApiError, call, uniqueKey } from './api.js';
import { composer, messageList, showMessage, showNotice } from './chat.js';
import { openRoomSocket } from './roomsocket.js';
import { openStream } from './stream.js';
import { $, duration, el, logActivity, showStreamState, time, toast } from './ui.js';

const SESSION_KEY = 'kindling.rooms.session';

export function startRooms(config) {
	const base = config.matching_url;
	const topics = new Map();
	let session = sessionStorage.getItem(SESSION_KEY);
	let stream = null;
	let ticker = null;
	let state = { status: 'idle' };
	let talk = null;

	const api = (path, options = {}) => call(base, path, { token: session, ...options });

	async function ensureSession() {
		if (!session) {
			session = (await call(base, '/api/sessions', { method: 'POST' })).token;
			sessionStorage.setItem(SESSION_KEY, session);
		}
		if (!stream) {
			stream = openStream({
				issueTicket: () => api('/api/matching/events/tickets', { method: 'POST' }),
				url: `${base}/api/matching/events`,
				events: ['matched'],
				onEvent: (name, room) => {
					logActivity(`Room formed: ${room.room_type} people in ${topicName(room.topic_id)}`,
						{ event: 'matched', 'room-id': room.room_id });
					render(room, 'push');
				},
				onState: (streamState, opens) => showStreamState('#rooms-live', streamState, opens),
			});
		}
		// a room that forms must find the stream open; one that formed already is sent when it opens
		await stream.ready;
	}

	function forget() {
		talk?.socket.close();
		talk = null;
		stream?.close();
		stream = null;
		session = null;
		sessionStorage.removeItem(SESSION_KEY);
	}

	function topicName(id) {
		return topics.get(id) ?? `topic ${id}`;
	}

	function render(next, via) {
		const box = $('#room-status');
		const pushed = box.dataset.pushed === 'true' && state.room_id === next.room_id;
		state = next;
		clearInterval(ticker);
		box.replaceChildren();
		box.dataset.status = next.status;
		box.dataset.pushed = String(pushed || via === 'push');
		box.hidden = next.status === 'idle';
		$('#join').disabled = next.status !== 'idle';
		if (next.status !== 'matched' || talk?.conversationId !== next.conversation_id) {
			talk?.socket.close();
			talk = null;
		}
		if (next.status === 'waiting') {
			const waited = el('p', { class: 'big' });
			const estimate = next.estimated_wait_ms > 0 ? `usually about ${duration(next.estimated_wait_ms)}` : '';
			const tick = () => {
				waited.textContent = `Waiting ${duration(Date.now() - Date.parse(next.waiting_since))}`;
			};
			tick();
			ticker = setInterval(tick, 1000);
			box.append(waited,
				el('p', { class: 'muted' }, `${topicName(next.topic_id)}, room of ${next.size}. ${estimate}`),
				el('button', { id: 'leave', onclick: leave }, 'Leave the queue'));
		}
		else if (next.status === 'matched') {
			box.dataset.roomId = next.room_id;
			box.append(el('p', { class: 'big' }, 'Matched!'),
				el('p', {}, `You are in a room of ${next.room_type} in ${topicName(next.topic_id)}, since ${time(next.matched_at)}.`),
				el('p', { class: 'muted' }, `Room ${next.room_id}`),
				conversation(next),
				el('button', { id: 'leave', onclick: leave }, 'Leave the room'));
		}
	}

	// The room's conversation: its socket opened once per room, its messages kept across renders.
	function conversation(room) {
		if (!talk) {
			const list = messageList('room-messages');
			const title = el('p', { id: 'room-you', class: 'muted' });
			const live = el('span', { id: 'room-live', 'data-stream': 'off' }, '●');
			const current = { conversationId: room.conversation_id, list, title, live, you: null };
			talk = current;
			current.socket = openRoomSocket({
				base,
				conversationId: room.conversation_id,
				issueTicket: () => api('/api/matching/events/tickets', { method: 'POST' }),
				stillIn: async () => (await api('/api/matching')).conversation_id === room.conversation_id,
				onFrame: (frame) => heard(current, frame),
				onState: (socketState) => {
					live.dataset.stream = socketState;
				},
			});
			current.form = composer('room-composer', async (text) => {
				if (current.socket.send(text, uniqueKey())) {
					return true;
				}
				toast('Not connected to the room: try again in a moment.');
				return false;
			});
		}
		return el('div', { class: 'conversation' }, talk.title, talk.list, talk.form,
			el('p', { class: 'live muted' }, talk.live, ' conversation'));
	}

	function heard(conversationState, frame) {
		const list = conversationState.list;
		if (frame.type === 'welcome') {
			conversationState.you = frame.you;
			conversationState.title.textContent = `You are ${frame.you}; in the room: ${frame.members.join(', ')}.`;
			$('#room-status').dataset.you = frame.you;
		}
		else if (frame.type === 'message') {
			showMessage(list, { id: frame.id, mine: frame.from === conversationState.you, who: frame.from,
				text: frame.text, at: frame.sent_at });
		}
		else if (frame.type === 'joined' || frame.type === 'left') {
			const mine = frame.member === conversationState.you;
			const verb = frame.type === 'joined' ? 'joined' : 'left';
			showNotice(list, { id: frame.id, event: frame.type, text: `${mine ? 'You' : frame.member} ${verb} the room.` });
			if (frame.type === 'left' && !mine) {
				logActivity(`${frame.member} left the room`, { event: 'left', member: frame.member });
			}
		}
		else if (frame.type === 'error') {
			toast(frame.detail);
		}
	}

	async function join(event) {
		event.preventDefault();
		const form = new FormData($('#join-form'));
		const topic = Number(form.get('topic'));
		if (!topic) {
			toast('Pick a topic first.');
			return;
		}
		$('#join').disabled = true;
		try {
			await ensureSession();
			render(await api('/api/matching', { method: 'POST', body: { topic_id: topic, size: Number(form.get('size')) } }), 'answer');
		}
		catch (error) {
			if (error instanceof ApiError && error.status === 401) {
				forget();
			}
			else if (error instanceof ApiError && error.status === 409) {
				render(await api('/api/matching'), 'answer');
				return;
			}
			toast(error.message);
			$('#join').disabled = false;
		}
	}

	async function leave() {
		try {
			await api('/api/matching', { method: 'DELETE' });
			render({ status: 'idle' }, 'answer');
		}
		catch (error) {
			toast(error.message);
		}
	}

	async function loadTopics() {
		const list = $('#topics');
		try {
			const answer = await call(base, '/api/topics');
			list.replaceChildren(...answer.topics.map((topic, index) => {
				topics.set(topic.id, topic.name);
				return el('label', {}, el('input', { type: 'radio', name: 'topic', value: topic.id, checked: index === 0 }),
					` ${topic.name}`);
			}));
		}
		catch (error) {
			list.replaceChildren(el('span', { class: 'muted' }, `Rooms are not reachable: ${error.message}`));
		}
	}

	$('#join-form').addEventListener('submit', join);
	loadTopics().then(async () => {
		if (!session) {
			return;
		}
		try {
			// back after a reload: the same session, its stream again, and where it stands now
			await ensureSession();
			render(await api('/api/matching'), 'answer');
		}
		catch (error) {
			forget();
		}
	});
}
