-- tag::database[]
CREATE DATABASE shop;
CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer VARCHAR(80) NOT NULL);
CREATE USER 'shop'@'%' IDENTIFIED BY 'change-me';
GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'shop'@'%';
GRANT SELECT ON performance_schema.replication_connection_status TO 'shop'@'%';
GRANT SELECT ON performance_schema.replication_applier_status TO 'shop'@'%';
GRANT SELECT ON performance_schema.replication_applier_status_by_worker TO 'shop'@'%';
-- end::database[]
