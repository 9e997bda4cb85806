package io.kindling.relay.publish;

/**
 * What one claim transaction did.
 *
 * @param published rows acked by Kafka and marked published
 * @param rejected rows Kafka refused, counted towards parking
 * @param kafkaUnavailable Kafka did not answer: the source backs off
 */
record BatchResult(int published, int rejected, boolean kafkaUnavailable) {

	static final BatchResult NOTHING = new BatchResult(0, 0, false);

	boolean didWork() {
		return this.published + this.rejected > 0;
	}

}
