/**
 * Each service's OpenAPI 3.1 description ({@code /v3/api-docs}) and Swagger UI
 * ({@code /swagger-ui.html}), generated from the controllers: the JSON as Jackson writes
 * it, every refusal as a typed problem detail, the service's security schemes.
 */
@NullMarked
package io.kindling.support.openapi;

import org.jspecify.annotations.NullMarked;
