package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.spring.listener.DbQueueListener;
import io.dbqueue.spring.listener.DbQueueListenerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotatedBeanDefinitionReader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AOT processes a context of the starter's auto-configurations (a queue, its injectable
 * producer, a {@code @DbQueueListener}), and the context started from the generated code works.
 */
class AotProcessingTest {

    private static final BlockingQueue<String> HANDLED = new LinkedBlockingQueue<>();

    @Test
    @CompileWithForkedClassLoader // the generated code reaches package-private configuration classes
    void theStartersBeansStartFromCodeGeneratedAheadOfTime() {
        // Not uniqueTable(): this test runs in a class loader of its own, where that counter starts again.
        String table = createTable("starter_aot_" + ProcessHandle.current().pid(), Layout.DBQ_SEQ);
        TestGenerationContext generation = new TestGenerationContext();
        ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(buildTimeContext(table),
                generation);
        generation.writeGeneratedContent();
        // hints for a native image, where the listener method is found and invoked, and its message read, by reflection
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handler.class, "handle"))
                .accepts(generation.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handler.class, "orders"))
                .accepts(generation.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onType(Order.class)).accepts(generation.getRuntimeHints());

        TestCompiler.forSystem().with(generation).compile(compiled -> {
            GenericApplicationContext runtime = new GenericApplicationContext();
            runtime.setEnvironment(environment(table));
            @SuppressWarnings("unchecked")
            ApplicationContextInitializer<GenericApplicationContext> generated =
                    compiled.getInstance(ApplicationContextInitializer.class, initializer.reflectionName());
            generated.initialize(runtime);
            runtime.refresh();
            try {
                runtime.getBean("mainQueueProducer", QueueProducer.class).enqueue("ahead of time");
                assertThat(HANDLED.poll(30, TimeUnit.SECONDS)).isEqualTo("ahead of time");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            } finally {
                runtime.close();
            }
        });
    }

    private static GenericApplicationContext buildTimeContext(String table) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.setEnvironment(environment(table));
        new AnnotatedBeanDefinitionReader(context).register(Application.class);
        return context;
    }

    private static StandardEnvironment environment(String table) {
        PostgresServer server = PostgresServer.shared();
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "spring.datasource.url", StarterTestSupport.jdbcUrl(),
                "spring.datasource.username", server.user(),
                "spring.datasource.password", server.password(),
                "dbq.queues.main.table", table,
                "dbq.queues.main.layout", "dbq_seq",
                "dbq.queues.main.no-task-timeout", "10ms",
                "dbq.queues.orders.table", table,
                "dbq.queues.orders.layout", "dbq_seq")));
        return environment;
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DbQueueAutoConfiguration.class,
            DbQueueListenerAutoConfiguration.class})
    static class Application {

        @Bean
        Handler handler() {
            return new Handler();
        }
    }

    static class Handler {

        @DbQueueListener(queue = "main")
        void handle(String message) {
            HANDLED.add(message);
        }

        @DbQueueListener(queue = "orders")
        void orders(List<Order> orders) {
        }
    }

    record Order(String id, int quantity) {
    }
}
