// Calls to the services. Errors are the services' problem details (RFC 9457), turned into an ApiError.

export class ApiError extends Error {
	constructor(status, problem) {
		super(problem?.detail || problem?.title || `HTTP ${status}`);
		this.status = status;
		this.problem = problem;
	}
}

// One call: JSON in and out, the token (a rooms session or a JWT) as a bearer header, never in the URL.
export async function call(base, path, { method = 'GET', token, body, headers = {} } = {}) {
	const sent = { Accept: 'application/json, application/problem+json', ...headers };
	if (token) {
		sent.Authorization = `Bearer ${token}`;
	}
	if (body !== undefined) {
		sent['Content-Type'] = 'application/json';
	}
	const response = await fetch(base + path, {
		method,
		headers: sent,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	const data = text ? JSON.parse(text) : null;
	if (!response.ok) {
		throw new ApiError(response.status, data);
	}
	return data;
}

// A unique key for a swipe's Idempotency-Key; crypto.randomUUID exists only in secure contexts.
export function uniqueKey() {
	if (crypto.randomUUID) {
		return crypto.randomUUID();
	}
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
