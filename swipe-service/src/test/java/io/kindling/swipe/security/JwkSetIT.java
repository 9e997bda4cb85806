package io.kindling.swipe.security;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.swipe.TestTokens;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tokens from a real auth service: RS256 and ES256, verified against the key set the auth
 * service publishes (served here by the test itself), never anything else.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe_jwk")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class JwkSetIT {

	static final RSAKey RSA = generate(() -> new RSAKeyGenerator(2048).keyID("rsa-1").generate());

	static final ECKey EC = generate(() -> new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate());

	/** A key the auth service never published. */
	static final RSAKey STRANGER = generate(() -> new RSAKeyGenerator(2048).keyID("rsa-2").generate());

	/** Another key under the published key's id. */
	static final RSAKey IMPOSTOR = generate(() -> new RSAKeyGenerator(2048).keyID("rsa-1").generate());

	static final AtomicInteger keySetReads = new AtomicInteger();

	static HttpServer authService;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void keySet(DynamicPropertyRegistry registry) throws IOException {
		authService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		byte[] keys = new JWKSet(List.<JWK>of(RSA.toPublicJWK(), EC.toPublicJWK())).toString()
			.getBytes(StandardCharsets.UTF_8);
		authService.createContext("/.well-known/jwks.json", (exchange) -> {
			keySetReads.incrementAndGet();
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, keys.length);
			exchange.getResponseBody().write(keys);
			exchange.close();
		});
		authService.start();
		registry.add("spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
				() -> "http://127.0.0.1:" + authService.getAddress().getPort() + "/.well-known/jwks.json");
		// the key set alone is enough: no HS256 secret is set
		registry.add("kindling.security.jwt-secret", () -> "");
	}

	@AfterAll
	static void stopAuthService() {
		authService.stop(0);
	}

	@Test
	void rs256AndEs256TokensSignedByPublishedKeysAreAccepted() throws Exception {
		assertThat(call(signed(JWSAlgorithm.RS256, new RSASSASigner(RSA), RSA.getKeyID(), "7", true)).status())
			.isEqualTo(200);
		assertThat(call(signed(JWSAlgorithm.ES256, new ECDSASigner(EC), EC.getKeyID(), "8", true)).status())
			.isEqualTo(200);
		assertThat(keySetReads.get()).isPositive();
	}

	@Test
	void aRememberedTokenStillWorksOnItsNextCall() throws Exception {
		String token = signed(JWSAlgorithm.RS256, new RSASSASigner(RSA), RSA.getKeyID(), "9", true);
		assertThat(call(token).status()).isEqualTo(200);
		assertThat(call(token).status()).isEqualTo(200);
	}

	@Test
	void aKeyOutsideTheSetAnAlgorithmItDoesNotAllowOrNoSignatureAre401() throws Exception {
		List<String> refused = List.of(
				signed(JWSAlgorithm.RS256, new RSASSASigner(STRANGER), STRANGER.getKeyID(), "7", true),
				signed(JWSAlgorithm.RS256, new RSASSASigner(IMPOSTOR), IMPOSTOR.getKeyID(), "7", true),
				signed(JWSAlgorithm.RS256, new RSASSASigner(STRANGER), null, "7", true),
				// the published key, but an algorithm the service does not take
				signed(JWSAlgorithm.RS512, new RSASSASigner(RSA), RSA.getKeyID(), "7", true),
				signed(JWSAlgorithm.PS256, new RSASSASigner(RSA), RSA.getKeyID(), "7", true),
				// valid in the default mode, not once a key set is configured
				TestTokens.forUser(7), TestTokens.unsigned(7), unsignedWithKeyId(),
				// the claims the service requires whatever the signature
				signed(JWSAlgorithm.RS256, new RSASSASigner(RSA), RSA.getKeyID(), "not-a-number", true),
				signed(JWSAlgorithm.RS256, new RSASSASigner(RSA), RSA.getKeyID(), "7", false));
		for (String token : refused) {
			Response response = call(token);
			assertThat(response.status()).as(token).isEqualTo(401);
			assertThat(response.header("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(response.body()).contains("https://kindling.io/problems/unauthenticated");
		}
	}

	private Response call(String token) {
		return new ServiceClient(this.port).get("/api/matches", token);
	}

	private static String signed(JWSAlgorithm algorithm, JWSSigner signer, @Nullable String keyId, String subject,
			boolean expires) throws JOSEException {
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject).issueTime(new Date());
		if (expires) {
			claims.expirationTime(Date.from(Instant.now().plusSeconds(3600)));
		}
		SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(keyId).build(), claims.build());
		jwt.sign(signer);
		return jwt.serialize();
	}

	private static String unsignedWithKeyId() {
		Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
		String header = base64.encodeToString("{\"alg\":\"none\",\"kid\":\"rsa-1\"}".getBytes(StandardCharsets.UTF_8));
		String claims = base64
			.encodeToString(("{\"sub\":\"7\",\"exp\":" + (Instant.now().getEpochSecond() + 3600) + "}")
				.getBytes(StandardCharsets.UTF_8));
		return header + "." + claims + ".";
	}

	private static <K> K generate(KeySupplier<K> supplier) {
		try {
			return supplier.get();
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private interface KeySupplier<K> {

		K get() throws JOSEException;

	}

}
