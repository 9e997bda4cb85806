package io.kindling.matching.topic;

import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

interface TopicRepository extends JpaRepository<TopicEntity, Long> {

	Optional<TopicEntity> findByName(String name);

	List<TopicEntity> findAllByOrderByIdAsc();

}
