// The operators' console: charts and alerts read from Prometheus through this page's own server, the open reports
// of both services with ban and dismiss, the users banned from swipes with lift, and the rooms' topics and bans. Every call carries the operators' token,
// which ./kindling ops puts in the fragment.

import uPlot from '/webjars/uplot/dist/uPlot.esm.js';
import { ApiError, call } from './api.js';
import { $, el, toast } from './ui.js';

const TOKEN_KEY = 'kindling.ops.token';
const REFRESH_MS = 30_000;
const COLOURS = ['#e8542a', '#2456a6', '#1f7a4d', '#b7860b', '#7b3fa0', '#0f7c8c', '#a0412d', '#5b6b2e'];

// Taken out of the address bar and kept for this tab only, as the demo page does with a user's token.
function operatorsToken() {
	const fragment = new URLSearchParams(location.hash.slice(1));
	if (fragment.has('token')) {
		sessionStorage.setItem(TOKEN_KEY, fragment.get('token'));
		history.replaceState(null, '', location.pathname + location.search);
	}
	return sessionStorage.getItem(TOKEN_KEY);
}

const plots = new Map();

function renderCharts(data) {
	const box = $('#charts');
	for (const chart of data.charts) {
		let figure = document.getElementById(`chart-${chart.name}`);
		if (!figure) {
			figure = el('figure', { class: 'chart', id: `chart-${chart.name}` },
				el('figcaption', {}, chart.title, ' ', el('span', {}, chart.unit)), el('div', { class: 'plot' }));
			box.append(figure);
		}
		const plot = figure.querySelector('.plot');
		plots.get(chart.name)?.destroy();
		plots.delete(chart.name);
		plot.replaceChildren();
		if (chart.lines.length === 0) {
			plot.append(el('p', { class: 'empty' }, 'No data yet.'));
		}
		else {
			const series = [{}, ...chart.lines.map((line, i) => ({
				// points too: a minute with a value between two without one is a dot, not nothing
				label: line.label, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true, points: { show: true, size: 4 },
			}))];
			const width = Math.max(260, plot.clientWidth || figure.clientWidth - 20);
			plots.set(chart.name, new uPlot({ width, height: 200, series, legend: { live: false } },
				[data.times, ...chart.lines.map((line) => line.values)], plot));
		}
		figure.dataset.lines = String(chart.lines.length);
		figure.dataset.rendered = 'true';
	}
}

function renderAlerts(alerts) {
	const list = $('#alerts');
	list.replaceChildren();
	if (alerts.length === 0) {
		list.append(el('li', { class: 'none' }, 'Nothing pending or firing.'));
	}
	for (const alert of alerts) {
		list.append(el('li', { 'data-state': alert.state, 'data-alert': alert.labels.alertname },
			el('strong', {}, alert.labels.alertname), ` ${alert.state}: ${alert.annotations.summary ?? ''} `,
			alert.annotations.runbook ? el('span', { class: 'muted' }, `(${alert.annotations.runbook})`) : null));
	}
}

function reportItem(service, base, token, report) {
	const who = service === 'swipe'
		? `user ${report.user_id}, reported by user ${report.reporter_user_id}`
		: `session ${report.session_key.slice(0, 12)}…, room ${report.room_id.slice(0, 8)}…`;
	const item = el('li', { 'data-report-id': report.report_id, 'data-service': service },
		el('div', { class: 'reason' }, report.reason),
		el('div', { class: 'meta' }, `${who} · ${new Date(report.created_at).toLocaleString()}`),
		report.details ? el('p', { class: 'details' }, report.details) : null,
		...(report.last_messages ?? []).map((message) => el('p', { class: 'details' }, `${message.from}: ${message.text}`)));
	const buttons = el('div', { class: 'buttons' });
	for (const action of ['BAN', 'DISMISS']) {
		buttons.append(el('button', {
			class: action === 'BAN' ? 'ban' : 'dismiss',
			onclick: () => resolve(base, token, report.report_id, action, item),
		}, action === 'BAN' ? 'Ban' : 'Dismiss'));
	}
	item.append(buttons);
	return item;
}

async function resolve(base, token, reportId, action, item) {
	for (const button of item.querySelectorAll('button')) {
		button.disabled = true;
	}
	try {
		await call(base, `/api/admin/reports/${reportId}/resolution`, { method: 'POST', token, body: { action } });
		item.remove();
		toast(action === 'BAN' ? `Report ${reportId}: banned.` : `Report ${reportId}: dismissed.`);
	}
	catch (error) {
		toast(error instanceof ApiError ? error.message : 'The service did not answer.');
		for (const button of item.querySelectorAll('button')) {
			button.disabled = false;
		}
	}
}

async function renderReports(listId, service, base, token) {
	const list = document.getElementById(listId);
	const page = await call(base, '/api/admin/reports?status=open&limit=50', { token });
	list.replaceChildren(...page.reports.map((report) => reportItem(service, base, token, report)));
	if (page.reports.length === 0) {
		list.append(el('li', { class: 'empty' }, 'No open reports.'));
	}
	list.dataset.loaded = 'true';
}

function fillTable(selector, rows) {
	$(`${selector} tbody`).replaceChildren(...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, String(cell ?? ''))))));
}

// The bans in force, newest first; lifting one lets the user call again (what the ban ended stays ended).
async function renderUserBans(base, token) {
	const page = await call(base, '/api/admin/user-bans?limit=50', { token });
	const rows = page.bans.filter((ban) => ban.active).map((ban) => {
		const lift = el('button', { class: 'lift' }, 'Lift');
		const row = el('tr', { 'data-user-id': String(ban.user_id) },
			...[ban.user_id, ban.reason, new Date(ban.created_at).toLocaleString(),
				ban.expires_at ? new Date(ban.expires_at).toLocaleString() : 'no end'].map((cell) => el('td', {}, String(cell))),
			el('td', {}, lift));
		lift.onclick = async () => {
			lift.disabled = true;
			try {
				await call(base, `/api/admin/user-bans/${ban.user_id}`, { method: 'DELETE', token });
				row.remove();
				toast(`User ${ban.user_id}: ban lifted.`);
			}
			catch (error) {
				toast(error instanceof ApiError ? error.message : 'The service did not answer.');
				lift.disabled = false;
			}
		};
		return row;
	});
	$('#user-bans tbody').replaceChildren(...rows);
	if (rows.length === 0) {
		$('#user-bans tbody').append(el('tr', { class: 'empty' }, el('td', { colspan: '5' }, 'Nobody is banned.')));
	}
	$('#user-bans').dataset.loaded = 'true';
}

async function renderRooms(base, token) {
	const topics = await call(base, '/api/admin/topics', { token });
	fillTable('#topics', topics.topics.map((topic) => [topic.id, topic.name, topic.active ? 'yes' : 'retired']));
	const bans = await call(base, '/api/admin/bans?limit=20', { token });
	fillTable('#bans', bans.bans.map((ban) => [ban.ban_type, ban.value, ban.reason, ban.expires_at ?? 'no end']));
}

// One section failing (a service or Prometheus away) leaves the others, and says so.
async function section(name, work) {
	try {
		await work();
	}
	catch (error) {
		toast(`${name}: ${error instanceof ApiError ? error.message : 'did not answer'}`);
	}
}

async function refresh(config, token) {
	await Promise.all([
		section('Charts', async () => renderCharts(await call('', '/ops/api/charts', { token }))),
		section('Alerts', async () => renderAlerts(await call('', '/ops/api/alerts', { token }))),
		section('Swipe reports', () => renderReports('swipe-reports', 'swipe', config.swipe_url, token)),
		section('Room reports', () => renderReports('room-reports', 'rooms', config.matching_url, token)),
		section('User bans', () => renderUserBans(config.swipe_url, token)),
		section('Rooms', () => renderRooms(config.matching_url, token)),
	]);
	$('#updated').textContent = `Updated ${new Date().toLocaleTimeString()}`;
	document.body.dataset.ready = 'true';
}

async function main() {
	const token = operatorsToken();
	if (!token) {
		$('#no-token').hidden = false;
		$('#updated').textContent = '';
		document.body.dataset.ready = 'true';
		return;
	}
	const config = await (await fetch('/config.json')).json();
	await refresh(config, token);
	setInterval(() => refresh(config, token), REFRESH_MS);
}

main();
