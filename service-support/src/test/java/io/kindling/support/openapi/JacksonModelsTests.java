package io.kindling.support.openapi;

import java.util.List;
import java.util.Map;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.media.Schema;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The schemas a record's components get. */
class JacksonModelsTests {

	record Picked(long topicId, List<Long> topicIds) {

	}

	@Test
	void aListOfLongsBesideALongIsDescribedAndTheyAreNotTakenForTwoTypesOfOneName() {
		ModelConverters converters = new ModelConverters(true);
		converters.addConverter(new JacksonModels());

		@SuppressWarnings("rawtypes")
		Map<String, Schema> schemas = converters.readAll(Picked.class);

		Schema<?> picked = schemas.get("Picked");
		assertThat(picked.getProperties()).containsOnlyKeys("topic_id", "topic_ids");
		assertThat(picked.getProperties().get("topic_ids").getItems().getTypes()).containsExactly("integer");
		assertThat(picked.getProperties().get("topic_ids").getItems().getFormat()).isEqualTo("int64");
		assertThat(picked.getRequired()).containsExactly("topic_id", "topic_ids");
	}

}
