package io.kindling.matching.topic;

import java.util.List;

/** The topics people may pick; matching only asks, it does not own them. */
public interface TopicCatalogue {

	boolean isActive(long topicId);

	List<Topic> activeTopics();

}
