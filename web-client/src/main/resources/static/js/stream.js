// A push stream a browser can open. EventSource cannot send an Authorization header, so every
// (re)connection first trades the token for a one-time ticket (POST …/tickets) and puts only the ticket in
// the URL. A browser's own reconnect would reuse the spent ticket, so on any error the page closes the
// source and connects again itself, naming the last event it got (last_event_id): the service sends what
// was missed, nothing twice.

export function openStream({ issueTicket, url, events, onEvent, onState }) {
	let lastEventId = null;
	let source = null;
	let stopped = false;
	let delay = 500;
	let timer = null;
	let opens = 0;
	let opened;
	let refused;
	const ready = new Promise((resolve, reject) => {
		opened = resolve;
		refused = reject;
	});

	async function connect() {
		let issued;
		try {
			issued = await issueTicket();
		}
		catch (error) {
			if (error.status === 401) {
				// the token itself is refused: retrying cannot help
				stopped = true;
				onState('off');
				refused(error);
				return;
			}
			retry();
			return;
		}
		if (stopped) {
			return;
		}
		const address = new URL(url);
		address.searchParams.set('ticket', issued.ticket);
		if (lastEventId) {
			address.searchParams.set('last_event_id', lastEventId);
		}
		source = new EventSource(address);
		source.onopen = () => {
			delay = 500;
			opens += 1;
			onState('live', opens);
			opened();
		};
		// a stream opened without an id first says where it starts, so that a drop before the first
		// real event still reconnects from there
		source.addEventListener('position', (event) => {
			lastEventId = event.lastEventId;
		});
		for (const name of events) {
			source.addEventListener(name, (event) => {
				if (event.lastEventId) {
					lastEventId = event.lastEventId;
				}
				onEvent(name, JSON.parse(event.data));
			});
		}
		source.onerror = () => {
			source.close();
			source = null;
			retry();
		};
	}

	function retry() {
		if (stopped) {
			return;
		}
		onState('reconnecting');
		timer = setTimeout(connect, delay);
		delay = Math.min(delay * 2, 10_000);
	}

	onState('connecting');
	connect();
	return {
		ready,
		close() {
			stopped = true;
			clearTimeout(timer);
			source?.close();
			onState('off');
		},
	};
}
