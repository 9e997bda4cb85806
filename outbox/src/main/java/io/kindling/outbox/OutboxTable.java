package io.kindling.outbox;

/**
 * Another outbox table of a service, beside {@code kindling.outbox.table}, for events
 * that the relay publishes to a topic of their own (one relay source per table). Declared
 * as a bean, it is made and migrated together with the first table;
 * {@link OutboxWriter#to} appends to it.
 *
 * @param name the table; the relay's source for it names the same one
 */
public record OutboxTable(String name) {

	public OutboxTable {
		TableName.require(name);
	}

}
