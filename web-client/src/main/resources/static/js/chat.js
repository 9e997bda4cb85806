// What a conversation looks like, in a room and in a match: a list of messages, oldest at the top, and a box
// to write in. Texts are always text nodes, never HTML.

import { el, time, toast } from './ui.js';

// A list of messages; `id` names it for the tests and for a screen reader's live region.
export function messageList(id) {
	return el('ol', { id, class: 'messages', 'aria-live': 'polite' });
}

// Appends a message unless the list shows it already (a push and an answer may both bring it).
export function showMessage(list, { id, mine, who, text, at }) {
	if (list.querySelector(`li[data-id="${CSS.escape(String(id))}"]`)) {
		return;
	}
	list.append(el('li', { class: mine ? 'message mine' : 'message', 'data-id': id, 'data-from': who },
		el('span', { class: 'from' }, mine ? 'You' : who),
		el('span', { class: 'text' }, text),
		el('time', { datetime: at }, time(at))));
	list.scrollTop = list.scrollHeight;
}

// A line that is not a message: someone joined or left.
export function showNotice(list, { id, text, event }) {
	if (id && list.querySelector(`li[data-id="${CSS.escape(String(id))}"]`)) {
		return;
	}
	list.append(el('li', { class: 'notice muted', 'data-id': id, 'data-event': event }, text));
	list.scrollTop = list.scrollHeight;
}

// A text box and a send button; `send(text)` resolves to true once the message is away, and then the box is
// emptied; to false (or a refusal, shown) when it is not, and the text stays.
export function composer(id, send) {
	const input = el('input', { id: `${id}-text`, type: 'text', maxlength: 1000, autocomplete: 'off',
		placeholder: 'Write a message', 'aria-label': 'Message' });
	const button = el('button', { id: `${id}-send`, type: 'submit', class: 'primary' }, 'Send');
	const form = el('form', { id, class: 'composer' }, input, button);
	form.addEventListener('submit', async (event) => {
		event.preventDefault();
		const text = input.value;
		if (!text.trim()) {
			return;
		}
		button.disabled = true;
		try {
			if (await send(text)) {
				input.value = '';
			}
		}
		catch (error) {
			toast(error.message);
		}
		finally {
			button.disabled = false;
			input.focus();
		}
	});
	return form;
}
