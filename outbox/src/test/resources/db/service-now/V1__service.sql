-- The same first migration once the outbox table's DDL moved to the outbox module.
CREATE TABLE facts (
    id   BIGINT       NOT NULL AUTO_INCREMENT,
    what VARCHAR(100) NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;
