package io.kindling.infra.test.fuzz;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One endpoint as the fuzzer sees it.
 *
 * @param method its method
 * @param path a concrete path that reaches it ({@code /api/profiles/7})
 * @param body the fields of its JSON body, or null when it takes none
 * @param authenticated whether it wants the caller's credentials
 * @param headers other headers a valid call sends ({@code Idempotency-Key})
 * @param badQueries query strings it must refuse ({@code limit=abc})
 */
public record Endpoint(String method, String path, @Nullable List<Field> body, boolean authenticated,
		Map<String, String> headers, List<String> badQueries) {

	public static Endpoint of(String method, String path, boolean authenticated) {
		return new Endpoint(method, path, null, authenticated, Map.of(), List.of());
	}

	public static Endpoint withBody(String method, String path, boolean authenticated, Field... fields) {
		return new Endpoint(method, path, List.of(fields), authenticated, Map.of(), List.of());
	}

	public Endpoint header(String name, String value) {
		Map<String, String> more = new java.util.LinkedHashMap<>(this.headers);
		more.put(name, value);
		return new Endpoint(this.method, this.path, this.body, this.authenticated, Map.copyOf(more), this.badQueries);
	}

	public Endpoint badQueries(String... queries) {
		return new Endpoint(this.method, this.path, this.body, this.authenticated, this.headers, List.of(queries));
	}

	/** One field of a JSON body, with a value that is valid for it. */
	public record Field(String name, Kind kind, String validJson) {

		public static Field integer(String name, long valid) {
			return new Field(name, Kind.INTEGER, String.valueOf(valid));
		}

		public static Field number(String name, double valid) {
			return new Field(name, Kind.NUMBER, String.valueOf(valid));
		}

		public static Field text(String name, String valid) {
			return new Field(name, Kind.TEXT, "\"" + valid + "\"");
		}

		public static Field enumeration(String name, String valid) {
			return new Field(name, Kind.ENUM, "\"" + valid + "\"");
		}

		public static Field date(String name, String valid) {
			return new Field(name, Kind.DATE, "\"" + valid + "\"");
		}

		public static Field enumArray(String name, String valid) {
			return new Field(name, Kind.ENUM_ARRAY, "[\"" + valid + "\"]");
		}

		public static Field object(String name, Field... fields) {
			StringBuilder json = new StringBuilder("{");
			for (Field field : fields) {
				json.append((json.length() > 1) ? "," : "").append('"').append(field.name()).append("\":");
				json.append(field.validJson());
			}
			return new Field(name, Kind.OBJECT, json.append('}').toString());
		}

	}

	/** What a field holds, and so which wrong values it must refuse. */
	public enum Kind {

		INTEGER, NUMBER, TEXT, ENUM, DATE, ENUM_ARRAY, OBJECT

	}

}
