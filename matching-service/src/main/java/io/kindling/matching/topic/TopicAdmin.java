package io.kindling.matching.topic;

import java.util.List;

import io.kindling.matching.Persistence;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The operators' topics: add, rename, retire (or bring back), list. A change shows on
 * this instance at once and on the others within {@code topic-cache-ttl}.
 */
@Service
class TopicAdmin {

	private final TopicRepository topics;

	private final JdbcTopicCatalogue catalogue;

	private final TransactionTemplate transactions;

	TopicAdmin(TopicRepository topics, JdbcTopicCatalogue catalogue,
			@Qualifier(Persistence.JPA_TRANSACTIONS) PlatformTransactionManager jpa) {
		this.topics = topics;
		this.catalogue = catalogue;
		this.transactions = new TransactionTemplate(jpa);
	}

	ManagedTopic add(String name) {
		ManagedTopic added = this.transactions.execute((status) -> {
			if (this.topics.findByName(name).isPresent()) {
				throw TopicRefusals.nameTaken(name);
			}
			return ManagedTopic.of(saved(new TopicEntity(name), name));
		});
		// after the commit, or the cache could read the table before it
		this.catalogue.forget();
		return added;
	}

	ManagedTopic change(long id, @Nullable String name, @Nullable Boolean active) {
		ManagedTopic changed = this.transactions.execute((status) -> {
			TopicEntity topic = this.topics.findById(id)
				.orElseThrow(() -> TopicRefusals.NO_SUCH_TOPIC.refused("no topic has id " + id));
			if (name != null && !name.equals(topic.name())) {
				this.topics.findByName(name).filter((other) -> other.id() != id).ifPresent((other) -> {
					throw TopicRefusals.nameTaken(name);
				});
				topic.rename(name);
			}
			if (active != null) {
				topic.activate(active);
			}
			return ManagedTopic.of(saved(topic, topic.name()));
		});
		this.catalogue.forget();
		return changed;
	}

	List<ManagedTopic> list() {
		return this.transactions
			.execute((status) -> this.topics.findAllByOrderByIdAsc().stream().map(ManagedTopic::of).toList());
	}

	/** Flushed here, so a name taken meanwhile by another operator is a 409 too. */
	private TopicEntity saved(TopicEntity topic, String name) {
		try {
			return this.topics.saveAndFlush(topic);
		}
		catch (DataIntegrityViolationException ex) {
			throw TopicRefusals.nameTaken(name);
		}
	}

	/** A topic as the operators' API shows it. */
	record ManagedTopic(long id, String name, boolean active) {

		static ManagedTopic of(TopicEntity topic) {
			return new ManagedTopic(topic.id(), topic.name(), topic.active());
		}

	}

}
