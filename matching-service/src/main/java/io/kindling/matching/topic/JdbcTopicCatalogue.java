package io.kindling.matching.topic;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class JdbcTopicCatalogue implements TopicCatalogue {

	private final JdbcClient jdbc;

	JdbcTopicCatalogue(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public boolean isActive(long topicId) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM topics WHERE id = :id AND active = TRUE
				""").param("id", topicId).query(Long.class).single() > 0;
	}

	@Override
	public List<Topic> activeTopics() {
		return this.jdbc.sql("""
				SELECT id, name FROM topics WHERE active = TRUE ORDER BY id
				""").query(Topic.class).list();
	}

}
