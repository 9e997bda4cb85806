package io.kindling.matching.ban;

import java.util.List;
import java.util.Optional;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

interface BanRepository extends JpaRepository<BanEntity, Long> {

	Optional<BanEntity> findByBanTypeAndSubject(BanType banType, String subject);

	/** A page of the list, newest first, after the cursor (an id). */
	List<BanEntity> findByIdLessThanOrderByIdDesc(long before, Limit limit);

}
