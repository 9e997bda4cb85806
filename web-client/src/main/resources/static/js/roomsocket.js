// A room's conversation over its WebSocket. A browser's WebSocket cannot send an Authorization header either,
// so each (re)connection first trades the session for a one-time ticket and puts only the ticket in the URL.
// After a drop it connects again naming the last entry it got (?after=): the room sends what came after it,
// nothing twice. A close with 1000 is the room's end for this person (they left): no reconnect.

export function openRoomSocket({ base, conversationId, issueTicket, stillIn, onFrame, onState }) {
	let lastId = null;
	let socket = null;
	let stopped = false;
	let delay = 500;
	let timer = null;

	async function connect() {
		let issued;
		try {
			issued = await issueTicket();
		}
		catch (error) {
			retry();
			return;
		}
		if (stopped) {
			return;
		}
		const address = new URL(`${base}/ws/rooms/${conversationId}`);
		address.protocol = address.protocol === 'https:' ? 'wss:' : 'ws:';
		address.searchParams.set('ticket', issued.ticket);
		if (lastId) {
			address.searchParams.set('after', lastId);
		}
		socket = new WebSocket(address);
		socket.onopen = () => {
			delay = 500;
			onState('live');
		};
		socket.onmessage = (event) => {
			const frame = JSON.parse(event.data);
			if (frame.id) {
				lastId = frame.id;
			}
			onFrame(frame);
		};
		socket.onclose = (event) => {
			socket = null;
			if (stopped || event.code === 1000) {
				stopped = true;
				onState('off');
				return;
			}
			retry();
		};
	}

	async function retry() {
		if (stopped) {
			return;
		}
		onState('reconnecting');
		// a socket refused before its upgrade (the room ended) shows only as a drop: ask first
		if (!(await stillIn().catch(() => true))) {
			stopped = true;
			onState('off');
			return;
		}
		timer = setTimeout(connect, delay);
		delay = Math.min(delay * 2, 10_000);
	}

	onState('connecting');
	connect();
	return {
		// false when the socket is not open; the text box keeps the text then
		send(text, clientMessageId) {
			if (!socket || socket.readyState !== WebSocket.OPEN) {
				return false;
			}
			socket.send(JSON.stringify({ type: 'message', text, client_message_id: clientMessageId }));
			return true;
		},
		close() {
			stopped = true;
			clearTimeout(timer);
			socket?.close(1000);
			onState('off');
		},
	};
}
