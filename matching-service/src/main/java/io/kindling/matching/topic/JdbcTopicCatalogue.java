package io.kindling.matching.topic;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.kindling.matching.HeldRead;
import io.kindling.matching.MatchingProperties;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code topics} table, read whole and kept for {@code topic-cache-ttl}: every join
 * asks whether its topic is active, and a handful of rows that change a few times a year
 * need not cost a query each time.
 */
@Repository
class JdbcTopicCatalogue implements TopicCatalogue {

	private final HeldRead<Snapshot> topics;

	JdbcTopicCatalogue(JdbcClient jdbc, Clock clock, MatchingProperties properties) {
		this.topics = new HeldRead<>(properties.topicCacheTtl(), clock, (now) -> {
			List<Topic> active = jdbc.sql("""
					SELECT id, name FROM topics WHERE active = TRUE ORDER BY id
					""").query(Topic.class).list();
			return new Snapshot(List.copyOf(active),
					active.stream().map(Topic::id).collect(Collectors.toUnmodifiableSet()));
		});
	}

	@Override
	public boolean isActive(long topicId) {
		return current().ids().contains(topicId);
	}

	@Override
	public List<Topic> activeTopics() {
		return current().topics();
	}

	/** The next question reads the table again: a change made here shows at once. */
	void forget() {
		this.topics.forget();
	}

	private Snapshot current() {
		return this.topics.get();
	}

	private record Snapshot(List<Topic> topics, Set<Long> ids) {

	}

}
