// Small helpers shared by the pages.

export function $(selector) {
	return document.querySelector(selector);
}

// An element with attributes and children; strings become text, never HTML.
export function el(tag, attributes = {}, ...children) {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === null || value === undefined || value === false) {
			continue;
		}
		if (name.startsWith('on')) {
			element.addEventListener(name.slice(2), value);
		}
		else {
			element.setAttribute(name, value === true ? '' : value);
		}
	}
	element.append(...children.flat().filter((child) => child !== null && child !== undefined));
	return element;
}

let toastTimer = null;

export function toast(message) {
	const box = $('#toast');
	box.textContent = message;
	box.hidden = false;
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => {
		box.hidden = true;
	}, 4000);
}

export function time(iso) {
	return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function duration(ms) {
	const seconds = Math.max(0, Math.round(ms / 1000));
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// A line in the "Live" list: what the services pushed, newest first, the last eight.
export function logActivity(text, data = {}) {
	const attributes = {};
	for (const [name, value] of Object.entries(data)) {
		attributes[`data-${name}`] = value;
	}
	const list = $('#activity');
	list.prepend(el('li', attributes, el('time', {}, time(new Date().toISOString())), text));
	while (list.children.length > 8) {
		list.lastElementChild.remove();
	}
}

// A round face with initials, its colour from the user id so one person always looks the same.
export function avatar(name, id) {
	const hue = (Number(id) * 47) % 360;
	const initials = name.split(/\s+/).map((part) => part[0] ?? '').join('').slice(0, 2).toUpperCase();
	return el('div', { class: 'avatar', style: `background: hsl(${hue} 55% 52%)`, 'aria-hidden': 'true' }, initials);
}

// The dot beside a stream's name: its state, and how many times it has opened (reconnects included).
export function showStreamState(selector, state, opens) {
	const dot = $(selector);
	dot.dataset.stream = state;
	dot.title = state;
	if (opens) {
		dot.dataset.opens = opens;
	}
}
