package io.kindling.matching.topic;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.kindling.matching.MatchingProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code topics} table, read whole and kept for {@code topic-cache-ttl}: every join
 * asks whether its topic is active, and a handful of rows that change a few times a year
 * need not cost a query each time.
 */
@Repository
class JdbcTopicCatalogue implements TopicCatalogue {

	private final JdbcClient jdbc;

	private final Clock clock;

	private final Duration ttl;

	private volatile @Nullable Snapshot snapshot;

	JdbcTopicCatalogue(JdbcClient jdbc, Clock clock, MatchingProperties properties) {
		this.jdbc = jdbc;
		this.clock = clock;
		this.ttl = properties.topicCacheTtl();
	}

	@Override
	public boolean isActive(long topicId) {
		return current().ids().contains(topicId);
	}

	@Override
	public List<Topic> activeTopics() {
		return current().topics();
	}

	private Snapshot current() {
		Instant now = this.clock.instant();
		Snapshot known = this.snapshot;
		if (known != null && now.isBefore(known.readAt().plus(this.ttl))) {
			return known;
		}
		synchronized (this) {
			known = this.snapshot;
			if (known != null && now.isBefore(known.readAt().plus(this.ttl))) {
				return known;
			}
			List<Topic> topics = this.jdbc.sql("""
					SELECT id, name FROM topics WHERE active = TRUE ORDER BY id
					""").query(Topic.class).list();
			Snapshot read = new Snapshot(List.copyOf(topics),
					topics.stream().map(Topic::id).collect(Collectors.toUnmodifiableSet()), now);
			this.snapshot = read;
			return read;
		}
	}

	private record Snapshot(List<Topic> topics, Set<Long> ids, Instant readAt) {

	}

}
