package io.dbqueue.test;

import org.springframework.context.annotation.Import;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@code @SpringBootTest} class: Spring Boot's DataSource connects to {@link TestPostgres}, whatever
 * {@code spring.datasource.url} says, as a {@code @ServiceConnection} container would make it. Add
 * {@code dbq.initialize-schema=always} to have the starter create the queue tables there.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Import(TestPostgresConnectionDetails.class)
public @interface AutoConfigureTestPostgres {
}
