package io.kindling.infra.test.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Sends malformed requests, each of them one a service must refuse, at a set of endpoints
 * and checks every answer: a 4xx, never a 5xx or a dropped connection, as
 * {@code application/problem+json} with a documented type. Seeded: a failure names its
 * seed and its request, and the same seed sends the same requests again.
 */
public final class Fuzzer {

	/** The seed of a run: {@code -Dkindling.fuzz.seed=N} replays another. */
	public static final long SEED = Long.getLong("kindling.fuzz.seed", 19);

	private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]*)\"");

	private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*(\\d+)");

	private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "TRACE", "FOO",
			"PROPFIND", "M-SEARCH", "CONNECT");

	// each makes a path that no endpoint serves, or one the container refuses outright
	private static final List<String> BAD_SEGMENTS = List.of("%00", "%", "%ZZ", "%0", "%c0%af", "%0a", "%0d%0a", "%01",
			"%1f", "%7f", "%ff%fe", "..%2f..%2fetc", "%2e%2e", "%5c", "a%00b", "\u0001", "%25", "%u0000", "%e2%80%ae",
			"x%20y", "%2F", "\\", "..;", "%3b");

	private static final List<String> BAD_CONTENT_TYPES = List.of("text/plain", "application/xml", "garbage",
			"application/", "/json", "application/json; charset=nope", "application/json;;;=", "multipart/form-data",
			"multipart/form-data; boundary=xyz", "application/x-www-form-urlencoded", "image/png", "*/*",
			"application/json\u0001", "text/html; charset=utf-8", "application/octet-stream");

	private final Random random;

	private final long seed;

	private final String host;

	private final int port;

	private final long maxBodyBytes;

	private final @Nullable String validAuthorization;

	private final List<@Nullable String> badAuthorizations;

	private final Set<String> knownTypes;

	/**
	 * @param seed what every choice follows
	 * @param port the service's HTTP port on 127.0.0.1
	 * @param maxBodyBytes the service's body-size limit
	 * @param validAuthorization the {@code Authorization} value of a valid caller
	 * @param badAuthorizations values that must get 401 (null: no header at all)
	 * @param knownTypes the documented problem types (whole URIs)
	 */
	public Fuzzer(long seed, int port, long maxBodyBytes, @Nullable String validAuthorization,
			List<@Nullable String> badAuthorizations, Set<String> knownTypes) {
		this.seed = seed;
		this.random = new Random(seed);
		this.host = "127.0.0.1";
		this.port = port;
		this.maxBodyBytes = maxBodyBytes;
		this.validAuthorization = validAuthorization;
		this.badAuthorizations = badAuthorizations;
		this.knownTypes = Set.copyOf(knownTypes);
	}

	/** What a run found: every request's defect and status, and what went wrong. */
	public record Report(Map<String, Integer> statusesByDefect, List<String> failures, int sent) {

	}

	/** Sends {@code requests} malformed requests spread over {@code endpoints}. */
	public Report run(List<Endpoint> endpoints, int requests) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		List<String> failures = new ArrayList<>();
		for (int i = 0; i < requests; i++) {
			Endpoint endpoint = endpoints.get(this.random.nextInt(endpoints.size()));
			Case request = next(endpoint, endpoints);
			String where = "seed " + this.seed + ", request " + i + " (" + request.defect() + " at " + endpoint.method()
					+ " " + endpoint.path() + "): " + request.shown();
			try {
				RawHttp.Response response = RawHttp.exchange(this.host, this.port, request.bytes(), 10_000);
				counts.merge(request.defect() + " " + response.status(), 1, Integer::sum);
				String wrong = check(response);
				if (wrong != null) {
					failures.add(wrong + " — " + where);
				}
			}
			catch (IOException ex) {
				failures.add("dropped connection (" + ex + ") — " + where);
			}
		}
		return new Report(counts, failures, requests);
	}

	private @Nullable String check(RawHttp.Response response) {
		if (response.status() < 400 || response.status() > 499) {
			return "status " + response.status() + " " + abbreviate(response.body());
		}
		String contentType = response.header("content-type");
		if (contentType == null || !contentType.startsWith("application/problem+json")) {
			return "content type " + contentType + " for " + response.status() + " " + abbreviate(response.body());
		}
		Matcher type = TYPE.matcher(response.body());
		if (!type.find() || !this.knownTypes.contains(type.group(1))) {
			return "undocumented type in " + abbreviate(response.body());
		}
		Matcher status = STATUS.matcher(response.body());
		if (!status.find() || Integer.parseInt(status.group(1)) != response.status()) {
			return "body status differs from " + response.status() + ": " + abbreviate(response.body());
		}
		return null;
	}

	/** One request and the defect that must get it refused. */
	record Case(String defect, byte[] bytes) {

		String shown() {
			String text = new String(this.bytes, 0, Math.min(this.bytes.length, 300), StandardCharsets.ISO_8859_1);
			return text.replace("\r\n", "⏎").replaceAll("\\p{Cntrl}", "¿");
		}

	}

	private Case next(Endpoint endpoint, List<Endpoint> all) {
		List<String> defects = new ArrayList<>(
				List.of("path", "huge-header", "odd-header", "content-length", "declared-oversize"));
		if (wrongMethods(endpoint, all).size() > 0) {
			defects.add("method");
		}
		if (!endpoint.badQueries().isEmpty()) {
			defects.add("query");
			defects.add("query");
		}
		if (endpoint.authenticated()) {
			defects.add("token");
			defects.add("token");
		}
		if (!readHeaders(endpoint).isEmpty()) {
			defects.add("non-ascii-header");
		}
		if (endpoint.body() != null) {
			defects.addAll(List.of("json", "json", "field", "field", "field", "content-type", "content-type",
					"chunked-oversize", "empty-body", "encoding"));
		}
		String defect = defects.get(this.random.nextInt(defects.size()));
		return switch (defect) {
			case "path" -> badPath(endpoint);
			case "huge-header" -> hugeHeader(endpoint);
			case "odd-header" -> oddHeader(endpoint);
			case "content-length" -> badContentLength(endpoint);
			case "declared-oversize" -> declaredOversize(endpoint);
			case "method" -> wrongMethod(endpoint, all);
			case "query" ->
				new Case("query", request(endpoint.method(), endpoint.path() + "?" + pick(endpoint.badQueries()),
						authorization(endpoint), endpoint.headers(), null, null, false));
			case "token" -> badToken(endpoint);
			case "non-ascii-header" -> nonAsciiHeader(endpoint);
			case "json" -> withBody(endpoint, "json", "application/json", brokenJson(endpoint));
			case "field" -> withBody(endpoint, "field", "application/json", wrongField(endpoint));
			case "content-type" -> withBody(endpoint, "content-type", pick(BAD_CONTENT_TYPES),
					validBody(endpoint).getBytes(StandardCharsets.UTF_8));
			case "chunked-oversize" -> chunkedOversize(endpoint);
			case "empty-body" -> withBody(endpoint, "empty-body", "application/json", new byte[0]);
			case "encoding" -> withBody(endpoint, "encoding", "application/json", badEncoding(endpoint));
			default -> throw new IllegalStateException(defect);
		};
	}

	private Case badPath(Endpoint endpoint) {
		String segment = pick(BAD_SEGMENTS);
		String path = this.random.nextBoolean() ? endpoint.path() + "/" + segment
				: endpoint.path().substring(0, endpoint.path().lastIndexOf('/') + 1) + segment;
		return new Case("path",
				request(endpoint.method(), path, authorization(endpoint), endpoint.headers(), null, null, false));
	}

	private Case hugeHeader(Endpoint endpoint) {
		Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
		if (this.random.nextBoolean()) {
			headers.put("X-Fuzz", "a".repeat(17_000 + this.random.nextInt(30_000)));
		}
		else {
			for (int i = 0; i < 200 + this.random.nextInt(200); i++) {
				headers.put("X-Fuzz-" + i, "b".repeat(100));
			}
		}
		return new Case("huge-header",
				request(endpoint.method(), endpoint.path(), authorization(endpoint), headers, null, null, false));
	}

	/** The headers the endpoint reads: its own, and the credentials it takes. */
	private static List<String> readHeaders(Endpoint endpoint) {
		List<String> read = new ArrayList<>(endpoint.headers().keySet());
		if (endpoint.authenticated()) {
			read.add("Authorization");
		}
		return read;
	}

	// a header the service reads, its value given a character that is not printable
	// ASCII: é as UTF-8 or as Latin-1, U+2028, an emoji (written as their bytes)
	private Case nonAsciiHeader(Endpoint endpoint) {
		String name = pick(readHeaders(endpoint));
		String valid = name.equals("Authorization") ? Objects.requireNonNullElse(this.validAuthorization, "Bearer x")
				: endpoint.headers().get(name);
		byte[] odd = pick(List.of("é".getBytes(StandardCharsets.UTF_8), "é".getBytes(StandardCharsets.ISO_8859_1),
				"\u2028".getBytes(StandardCharsets.UTF_8), "\uD83D\uDD25".getBytes(StandardCharsets.UTF_8)));
		int at = this.random.nextInt(valid.length() + 1);
		String value = valid.substring(0, at) + new String(odd, StandardCharsets.ISO_8859_1) + valid.substring(at);
		Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
		headers.remove(name);
		headers.put(name, value);
		String authorization = name.equals("Authorization") ? null : authorization(endpoint);
		// with a valid body, so that nothing but the header is wrong
		boolean body = endpoint.body() != null;
		return new Case("non-ascii-header",
				request(endpoint.method(), endpoint.path(), authorization, headers, body ? "application/json" : null,
						body ? validBody(endpoint).getBytes(StandardCharsets.UTF_8) : null, false));
	}

	// each is a header line no server may take: a refusal whatever the endpoint
	private Case oddHeader(Endpoint endpoint) {
		// (a folded line or Transfer-Encoding beside Content-Length are not here:
		// HTTP/1.1 lets a
		// server take them, and Tomcat does)
		String line = pick(List.of("Bad Header: x", "X-Ctl: a\u0001b", "X-Nul: a\u0000b", ": no-name",
				"X-Bare-CR: a\rb", "Host: second.example", "X-\u00e9: latin", "Content-Length: 5\r\nContent-Length: 6",
				"Transfer-Encoding: gzip, chunked, identity", "NoColonHere"));
		Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
		headers.put("\u0000raw", line);
		return new Case("odd-header",
				request(endpoint.method(), endpoint.path(), authorization(endpoint), headers, null, null, false));
	}

	private Case badContentLength(Endpoint endpoint) {
		String value = pick(List.of("abc", "-1", "1.5", "99999999999999999999999", "0x10", " ", "5 5"));
		Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
		headers.put("Content-Length", value);
		return new Case("content-length",
				request(endpoint.method(), endpoint.path(), authorization(endpoint), headers, null, null, false));
	}

	private Case declaredOversize(Endpoint endpoint) {
		int size = (int) this.maxBodyBytes + 1 + this.random.nextInt((int) this.maxBodyBytes * 8);
		byte[] body = new byte[size];
		java.util.Arrays.fill(body, (byte) '7');
		return new Case("declared-oversize", request(endpoint.method(), endpoint.path(), authorization(endpoint),
				endpoint.headers(), "application/json", body, false));
	}

	private Case chunkedOversize(Endpoint endpoint) {
		StringBuilder body = new StringBuilder("{\"").append(endpoint.body().get(0).name()).append("\":\"");
		int size = (int) this.maxBodyBytes + 1 + this.random.nextInt((int) this.maxBodyBytes * 4);
		body.append("x".repeat(size)).append("\"}");
		return new Case("chunked-oversize", request(endpoint.method(), endpoint.path(), authorization(endpoint),
				endpoint.headers(), "application/json", body.toString().getBytes(StandardCharsets.UTF_8), true));
	}

	private List<String> wrongMethods(Endpoint endpoint, List<Endpoint> all) {
		Set<String> allowed = new HashSet<>(List.of("HEAD", "OPTIONS"));
		for (Endpoint other : all) {
			if (other.path().equals(endpoint.path())) {
				allowed.add(other.method());
			}
		}
		return METHODS.stream().filter((method) -> !allowed.contains(method)).toList();
	}

	private Case wrongMethod(Endpoint endpoint, List<Endpoint> all) {
		String method = pick(wrongMethods(endpoint, all));
		return new Case("method",
				request(method, endpoint.path(), authorization(endpoint), endpoint.headers(), null, null, false));
	}

	private Case badToken(Endpoint endpoint) {
		String authorization = this.badAuthorizations.get(this.random.nextInt(this.badAuthorizations.size()));
		byte[] body = (endpoint.body() != null) ? validBody(endpoint).getBytes(StandardCharsets.UTF_8) : null;
		return new Case("token", request(endpoint.method(), endpoint.path(), authorization, endpoint.headers(),
				(body != null) ? "application/json" : null, body, false));
	}

	private String validBody(Endpoint endpoint) {
		return body(endpoint, null, null);
	}

	private String body(Endpoint endpoint, @Nullable String replacedField, @Nullable String replacement) {
		StringBuilder json = new StringBuilder("{");
		for (Endpoint.Field field : endpoint.body()) {
			json.append((json.length() > 1) ? "," : "").append('"').append(field.name()).append("\":");
			json.append(field.name().equals(replacedField) ? replacement : field.validJson());
		}
		return json.append('}').toString();
	}

	private byte[] brokenJson(Endpoint endpoint) {
		String valid = validBody(endpoint);
		Endpoint.Field first = endpoint.body().get(0);
		String json = switch (this.random.nextInt(12)) {
			case 0 -> valid.substring(0, 1 + this.random.nextInt(valid.length() - 1));
			case 1 -> valid + pick(List.of("x", "{}", "[", "1", ",", "\"tail\""));
			case 2 -> "{\"" + first.name() + "\":" + first.validJson() + "," + valid.substring(1);
			case 3 -> pick(List.of("[]", "null", "\"text\"", "42", "true", "[" + valid + "]"));
			case 4 -> pick(List.of("{", "}", "{{}}", "{\"a\"}", "{\"a\":}", "{'a':1}", "{a:1}", "{\"a\":1,}"));
			case 5 -> "[".repeat(2000) + "]".repeat(2000);
			case 6 -> valid.replace(":", "=");
			case 7 -> valid.replace("{", "{{");
			case 8 -> valid.replace("\"", "'");
			case 9 -> "{\"" + first.name() + "\":NaN}";
			case 10 -> "<xml/>";
			default -> "{\"" + first.name() + "\":" + first.validJson() + " // comment\n}";
		};
		return json.getBytes(StandardCharsets.UTF_8);
	}

	private byte[] wrongField(Endpoint endpoint) {
		Endpoint.Field field = endpoint.body().get(this.random.nextInt(endpoint.body().size()));
		List<String> wrong = switch (field.kind()) {
			case INTEGER -> List.of("2.5", "\"2\"", "\"x\"", "true", "[]", "{}", "1e400", "99999999999999999999999",
					"-99999999999999999999999", "\"\"", "1.0e1", "0.1");
			case NUMBER -> List.of("\"2\"", "\"x\"", "true", "[]", "{}", "\"\"");
			case TEXT -> List.of("5", "2.5", "true", "[]", "{}", "[\"a\"]");
			case ENUM -> List.of("\"NOT_A_VALUE\"", "0", "1", "\"\"", "true", "[]", "{}", "2.5");
			case DATE -> List.of("\"2020-13-45\"", "\"yesterday\"", "5", "true", "[]", "{}", "\"\"", "\"2020-02-30\"");
			case ENUM_ARRAY -> List.of("[\"NOT_A_VALUE\"]", "[0]", "\"x\"", "5", "{}", "[[]]", "[{}]");
			case OBJECT -> List.of("5", "\"x\"", "[]", "true", "{\"lat\":\"x\",\"lon\":1}", "{\"lat\":[],\"lon\":1}");
		};
		return body(endpoint, field.name(), pick(wrong)).getBytes(StandardCharsets.UTF_8);
	}

	// not UTF-8 (a lone continuation byte, an overlong form, a cut sequence, a surrogate)
	// in
	// a string, or between tokens where a body has no string
	private byte[] badEncoding(Endpoint endpoint) {
		Endpoint.Field text = endpoint.body()
			.stream()
			.filter((field) -> field.kind() == Endpoint.Kind.TEXT || field.kind() == Endpoint.Kind.ENUM)
			.findFirst()
			.orElse(null);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		String before = (text != null) ? body(endpoint, text.name(), "\"@@\"")
				: "{@@" + validBody(endpoint).substring(1);
		int at = before.indexOf("@@");
		bytes.writeBytes(before.substring(0, at).getBytes(StandardCharsets.UTF_8));
		byte[][] bad = { { (byte) 0x80 }, { (byte) 0xC0, (byte) 0xAF }, { (byte) 0xE2, (byte) 0x82 }, { (byte) 0xFF },
				{ (byte) 0xED, (byte) 0xA0, (byte) 0x80 } };
		bytes.writeBytes(bad[this.random.nextInt(bad.length)]);
		bytes.writeBytes(before.substring(at + 2).getBytes(StandardCharsets.UTF_8));
		return bytes.toByteArray();
	}

	private Case withBody(Endpoint endpoint, String defect, String contentType, byte[] body) {
		return new Case(defect, request(endpoint.method(), endpoint.path(), authorization(endpoint), endpoint.headers(),
				contentType, body, this.random.nextInt(4) == 0));
	}

	private @Nullable String authorization(Endpoint endpoint) {
		return endpoint.authenticated() ? this.validAuthorization : null;
	}

	private byte[] request(String method, String path, @Nullable String authorization, Map<String, String> headers,
			@Nullable String contentType, byte @Nullable [] body, boolean chunked) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		StringBuilder head = new StringBuilder();
		head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
		head.append("Host: 127.0.0.1:").append(this.port).append("\r\n");
		head.append("Connection: close\r\n");
		if (authorization != null) {
			head.append("Authorization: ").append(authorization).append("\r\n");
		}
		boolean lengthGiven = false;
		for (Map.Entry<String, String> header : headers.entrySet()) {
			if (header.getKey().startsWith("\u0000raw")) {
				head.append(header.getValue()).append("\r\n");
			}
			else {
				head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
				lengthGiven |= header.getKey().toLowerCase(Locale.ROOT).equals("content-length");
			}
		}
		if (contentType != null) {
			head.append("Content-Type: ").append(contentType).append("\r\n");
		}
		if (body != null && chunked) {
			head.append("Transfer-Encoding: chunked\r\n");
		}
		else if (body != null && !lengthGiven) {
			head.append("Content-Length: ").append(body.length).append("\r\n");
		}
		head.append("\r\n");
		out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
		if (body != null && chunked) {
			int at = 0;
			while (at < body.length) {
				int size = Math.min(body.length - at, 1 + this.random.nextInt(4096));
				out.writeBytes((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
				out.write(body, at, size);
				out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
				at += size;
			}
			out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
		}
		else if (body != null) {
			out.writeBytes(body);
		}
		return out.toByteArray();
	}

	private <T> T pick(List<T> choices) {
		return choices.get(this.random.nextInt(choices.size()));
	}

	private static String abbreviate(String text) {
		return (text.length() > 300) ? text.substring(0, 300) + "…" : text;
	}

}
