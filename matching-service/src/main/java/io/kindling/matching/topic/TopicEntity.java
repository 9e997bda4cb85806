package io.kindling.matching.topic;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

/** A row of {@code topics}, as the operators' API changes it. */
@Entity
@Table(name = "topics")
class TopicEntity {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private @Nullable Long id;

	@Column(nullable = false, length = 100)
	private String name = "";

	@Column(nullable = false)
	private boolean active = true;

	protected TopicEntity() {
	}

	TopicEntity(String name) {
		this.name = name;
	}

	long id() {
		if (this.id == null) {
			throw new IllegalStateException("a topic not saved yet has no id");
		}
		return this.id;
	}

	String name() {
		return this.name;
	}

	boolean active() {
		return this.active;
	}

	void rename(String name) {
		this.name = name;
	}

	void activate(boolean active) {
		this.active = active;
	}

}
