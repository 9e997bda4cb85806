package io.kindling.relay;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A pass-through between Kafka clients and one broker that reads the Kafka protocol's
 * frames, for one fault: what a restarting broker did to the relay. Metadata answers name
 * the gate instead of the broker, so every request of a client bootstrapped here passes
 * through it. Once {@linkplain #bounceNextProduce armed}, the first produce request for a
 * topic is not forwarded: it is answered {@code NOT_LEADER_OR_FOLLOWER}, a retriable
 * error, as by a broker still taking up its partitions, and that answer is held back
 * until the client has sent its next produce request for the topic (which is forwarded),
 * or for at most the given time. A client with several requests in flight thus has its
 * second batch appended before its first, as the relay had.
 */
final class KafkaGate implements AutoCloseable {

	private final ServerSocket listener;

	private final int brokerPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final AtomicInteger bounced = new AtomicInteger();

	/** Topic ids by name, as the metadata answers passing through tell them. */
	private final Map<String, Uuid> topicIds = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	/** The topic whose next produce request is bounced; null when not armed. */
	private String bounceTopic;

	private Duration holdAtMost = Duration.ZERO;

	/** The held answer to the bounced request, released by the next one or in time. */
	private Pending heldBounce;

	private volatile boolean closed;

	KafkaGate(int brokerPort) {
		this.brokerPort = brokerPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread.ofPlatform().daemon().name("kafka-gate-accept").start(this::accept);
	}

	String bootstrapServers() {
		return "127.0.0.1:" + this.listener.getLocalPort();
	}

	/**
	 * The next produce request for the topic is bounced, its answer held at most so long.
	 */
	void bounceNextProduce(String topic, Duration holdAtMost) {
		synchronized (this.lock) {
			this.bounceTopic = topic;
			this.holdAtMost = holdAtMost;
		}
	}

	/** How many produce requests were bounced. */
	int bounced() {
		return this.bounced.get();
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.listener.accept();
				Socket broker = new Socket(InetAddress.getLoopbackAddress(), this.brokerPort);
				this.sockets.add(client);
				this.sockets.add(broker);
				Connection connection = new Connection(client, broker);
				Thread.ofPlatform().daemon().name("kafka-gate-requests").start(connection::requests);
				Thread.ofPlatform().daemon().name("kafka-gate-answers").start(connection::answers);
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	@Override
	public void close() throws IOException {
		this.closed = true;
		this.listener.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private static byte[] readFrame(DataInputStream in) throws IOException {
		byte[] frame = new byte[in.readInt()];
		in.readFully(frame);
		return frame;
	}

	/** One request's answer, in request order: the broker's, or the gate's own. */
	private static final class Pending {

		final int correlationId;

		final RequestHeader header;

		byte[] answer;

		/** Whether the answer may be written once its turn comes. */
		boolean ready;

		Pending(RequestHeader header) {
			this.correlationId = header.correlationId();
			this.header = header;
		}

	}

	/** One client connection and the gate's connection to the broker for it. */
	private final class Connection {

		private final Socket client;

		private final Socket broker;

		/** Answers owed to the client, in the order it asked. */
		private final Deque<Pending> owed = new ArrayDeque<>();

		Connection(Socket client, Socket broker) {
			this.client = client;
			this.broker = broker;
		}

		void requests() {
			try (DataInputStream in = new DataInputStream(this.client.getInputStream())) {
				OutputStream out = this.broker.getOutputStream();
				while (true) {
					byte[] frame = readFrame(in);
					ByteBuffer buffer = ByteBuffer.wrap(frame);
					RequestHeader header = RequestHeader.parse(buffer);
					Pending pending = new Pending(header);
					boolean bounce = false;
					Pending release = null;
					if (header.apiKey() == ApiKeys.PRODUCE) {
						ProduceRequestData produce = ProduceRequest
							.parse(new ByteBufferAccessor(buffer), header.apiVersion())
							.data();
						synchronized (KafkaGate.this.lock) {
							// newer produce requests name a topic by its id only
							Uuid bounceId = (KafkaGate.this.bounceTopic != null)
									? KafkaGate.this.topicIds.get(KafkaGate.this.bounceTopic) : null;
							boolean forTopic = produce.topicData()
								.stream()
								.anyMatch((topic) -> topic.name().equals(KafkaGate.this.bounceTopic)
										|| (bounceId != null && bounceId.equals(topic.topicId())));
							if (forTopic) {
								bounce = true;
								KafkaGate.this.bounceTopic = null;
								pending.answer = notLeader(header, produce);
								KafkaGate.this.heldBounce = pending;
							}
							else if (KafkaGate.this.heldBounce != null && !produce.topicData().isEmpty()) {
								release = KafkaGate.this.heldBounce;
								KafkaGate.this.heldBounce = null;
							}
						}
					}
					synchronized (this.owed) {
						this.owed.add(pending);
					}
					if (bounce) {
						KafkaGate.this.bounced.incrementAndGet();
						Duration holdAtMost = KafkaGate.this.holdAtMost;
						Thread.ofPlatform().daemon().start(() -> releaseIn(pending, holdAtMost));
						continue;
					}
					synchronized (out) {
						out.write(ByteBuffer.allocate(4).putInt(frame.length).array());
						out.write(frame);
						out.flush();
					}
					if (release != null) {
						// the next request has gone to the broker: now the bounce may be
						// read
						answerOwed(release);
					}
				}
			}
			catch (IOException ex) {
				closeQuietly();
			}
		}

		private void releaseIn(Pending bounced, Duration holdAtMost) {
			try {
				Thread.sleep(holdAtMost);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			synchronized (KafkaGate.this.lock) {
				if (KafkaGate.this.heldBounce != bounced) {
					return;
				}
				KafkaGate.this.heldBounce = null;
			}
			answerOwed(bounced);
		}

		void answers() {
			try (DataInputStream in = new DataInputStream(this.broker.getInputStream())) {
				while (true) {
					byte[] frame = readFrame(in);
					int correlationId = ByteBuffer.wrap(frame).getInt();
					Pending pending;
					synchronized (this.owed) {
						pending = this.owed.stream()
							.filter((owed) -> owed.correlationId == correlationId)
							.findFirst()
							.orElseThrow();
					}
					byte[] answer = (pending.header.apiKey() == ApiKeys.METADATA) ? throughGate(pending, frame) : frame;
					synchronized (this.owed) {
						pending.answer = answer;
						pending.ready = true;
					}
					writeReady();
				}
			}
			catch (IOException ex) {
				closeQuietly();
			}
		}

		/** The held bounce may be read now. */
		private void answerOwed(Pending bounced) {
			synchronized (this.owed) {
				bounced.ready = true;
			}
			try {
				writeReady();
			}
			catch (IOException ex) {
				closeQuietly();
			}
		}

		/** Writes the answers at the head of the queue that are ready, in order. */
		private void writeReady() throws IOException {
			synchronized (this.owed) {
				OutputStream out = this.client.getOutputStream();
				while (!this.owed.isEmpty() && this.owed.peek().ready) {
					Pending head = this.owed.poll();
					out.write(ByteBuffer.allocate(4).putInt(head.answer.length).array());
					out.write(head.answer);
				}
				out.flush();
			}
		}

		private void closeQuietly() {
			try {
				this.client.close();
				this.broker.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}

	}

	/** The broker's metadata answer with every broker's port replaced by the gate's. */
	private byte[] throughGate(Pending pending, byte[] frame) {
		ByteBuffer buffer = ByteBuffer.wrap(frame);
		short version = pending.header.apiVersion();
		short headerVersion = ApiKeys.METADATA.responseHeaderVersion(version);
		ResponseHeader header = ResponseHeader.parse(buffer, headerVersion);
		MetadataResponseData data = MetadataResponse.parse(new ByteBufferAccessor(buffer), version).data();
		data.brokers().forEach((broker) -> broker.setPort(this.listener.getLocalPort()));
		data.topics().forEach((topic) -> {
			if (topic.name() != null && !Uuid.ZERO_UUID.equals(topic.topicId())) {
				this.topicIds.put(topic.name(), topic.topicId());
			}
		});
		return array(RequestUtils.serialize(header.data(), headerVersion, data, version));
	}

	/** {@code NOT_LEADER_OR_FOLLOWER} for every partition of the request. */
	private static byte[] notLeader(RequestHeader request, ProduceRequestData produce) {
		ProduceResponseData.TopicProduceResponseCollection topics = new ProduceResponseData.TopicProduceResponseCollection();
		for (ProduceRequestData.TopicProduceData topic : produce.topicData()) {
			List<ProduceResponseData.PartitionProduceResponse> partitions = new ArrayList<>();
			for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
				partitions.add(new ProduceResponseData.PartitionProduceResponse().setIndex(partition.index())
					.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
					.setBaseOffset(-1)
					.setLogStartOffset(-1));
			}
			topics.add(new ProduceResponseData.TopicProduceResponse().setName(topic.name())
				.setTopicId(topic.topicId())
				.setPartitionResponses(partitions));
		}
		ProduceResponseData data = new ProduceResponseData().setResponses(topics);
		short version = request.apiVersion();
		short headerVersion = ApiKeys.PRODUCE.responseHeaderVersion(version);
		return array(RequestUtils.serialize(new ResponseHeader(request.correlationId(), headerVersion).data(),
				headerVersion, data, version));
	}

	private static byte[] array(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

}
