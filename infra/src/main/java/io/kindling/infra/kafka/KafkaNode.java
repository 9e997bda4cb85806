package io.kindling.infra.kafka;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One Kafka node on loopback: its id, its client port and its controller port. Every node
 * here is both broker and controller (KRaft combined mode).
 *
 * @param id the {@code node.id}
 * @param port the client listener ({@code PLAINTEXT})
 * @param controllerPort the KRaft controller listener
 */
public record KafkaNode(int id, int port, int controllerPort) {

	/**
	 * This node as a member of {@code controller.quorum.voters}: {@code id@host:port}.
	 */
	public String voter() {
		return this.id + "@127.0.0.1:" + this.controllerPort;
	}

	public String address() {
		return "127.0.0.1:" + this.port;
	}

	/** The {@code controller.quorum.voters} value of these nodes. */
	public static String voters(List<KafkaNode> quorum) {
		return quorum.stream().map(KafkaNode::voter).collect(Collectors.joining(","));
	}

	/**
	 * The reverse of {@link #voters}, for a launcher given the quorum on its command
	 * line.
	 */
	static List<KafkaNode> parseVoters(String voters) {
		return java.util.Arrays.stream(voters.split(",")).map(String::strip).map((voter) -> {
			int at = voter.indexOf('@');
			int colon = voter.lastIndexOf(':');
			if (at < 1 || colon < at) {
				throw new IllegalArgumentException("a voter is id@host:port, not " + voter);
			}
			return new KafkaNode(Integer.parseInt(voter.substring(0, at)), 0,
					Integer.parseInt(voter.substring(colon + 1)));
		}).toList();
	}

}
