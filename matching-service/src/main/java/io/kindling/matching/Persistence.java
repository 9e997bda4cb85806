package io.kindling.matching;

import javax.sql.DataSource;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;

/**
 * Two ways to the database, kept apart. The operators' API (topics, bans) is plain CRUD
 * on JPA entities and Spring Data repositories, in transactions of
 * {@value #JPA_TRANSACTIONS}. Everything else (joins, rooms, reports) is SQL through
 * {@code JdbcClient} in plain JDBC transactions, the default: a room's write opens no
 * {@code EntityManager}.
 */
@Configuration(proxyBeanMethods = false)
@EnableJpaRepositories(transactionManagerRef = Persistence.JPA_TRANSACTIONS)
public class Persistence {

	/** The transaction manager the JPA side names. */
	public static final String JPA_TRANSACTIONS = "jpaTransactionManager";

	@Bean
	@Primary
	JdbcTransactionManager transactionManager(DataSource dataSource) {
		return new JdbcTransactionManager(dataSource);
	}

	/**
	 * Also binds the JDBC connection, so an outbox row written with {@code JdbcClient}
	 * commits with the entity it reports.
	 */
	@Bean(JPA_TRANSACTIONS)
	JpaTransactionManager jpaTransactionManager(EntityManagerFactory entityManagerFactory) {
		return new JpaTransactionManager(entityManagerFactory);
	}

}
