package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.observation.DbQueueObservationAutoConfiguration;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

/** dbq.observation-enabled with Micrometer's test tracer: a task's process span is a child of its enqueue span. */
class ObservationTest {

    private final SimpleTracer tracer = new SimpleTracer();
    private final ObservationRegistry registry = ObservationRegistry.create();
    /** What the handler saw: the task, and the span current while it ran. */
    private final BlockingQueue<Object[]> handled = new ArrayBlockingQueue<>(10);

    ObservationTest() {
        Propagator propagator = new TraceparentPropagator(tracer);
        registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    }

    @Test
    void theProcessSpanOfATaskIsAChildOfItsEnqueueSpanAcrossTheDatabase() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withConfiguration(AutoConfigurations.of(DbQueueObservationAutoConfiguration.class))
                .withPropertyValues("dbq.observation-enabled=true", "dbq.queues.work.table=" + table,
                        "dbq.queues.work.layout=dbq_seq")
                .withBean(ObservationRegistry.class, () -> registry)
                .withBean(QueueConsumer.class, this::consumer)
                .run(context -> {
                    context.getBean(DbQueues.class).producer("work").enqueue("traced");
                    Object[] seen = handled.poll(20, TimeUnit.SECONDS);
                    assertThat(seen).as("the task was handled").isNotNull();
                    await(Duration.ofSeconds(10), "the process span to end", () -> spans("work process").size() == 1);

                    SimpleSpan enqueue = spans("work send").get(0);
                    SimpleSpan process = spans("work process").get(0);
                    assertThat(process.getTraceId()).isEqualTo(enqueue.getTraceId());
                    assertThat(process.getParentId()).isEqualTo(enqueue.getSpanId());
                    assertThat(process.getTags()).containsEntry("dbq.queue", "work").containsEntry("dbq.table", table);
                    assertThat(enqueue.getTags()).containsEntry("dbq.queue", "work").containsEntry("dbq.table", table);
                    assertThat(((Task) seen[0]).headers()).containsKey(TraceparentPropagator.FIELD);
                    assertThat(seen[1]).as("the handler runs in the process span's scope")
                            .isEqualTo(process.getSpanId());
                });
    }

    @Test
    void withoutThePropertyNothingIsObservedAndTasksCarryNoHeaders() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withConfiguration(AutoConfigurations.of(DbQueueObservationAutoConfiguration.class))
                .withPropertyValues("dbq.queues.work.table=" + table, "dbq.queues.work.layout=dbq_seq")
                .withBean(ObservationRegistry.class, () -> registry)
                .withBean(QueueConsumer.class, this::consumer)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DbQueueObservationAutoConfiguration.class);
                    context.getBean(DbQueues.class).producer("work").enqueue("untraced");
                    Object[] seen = handled.poll(20, TimeUnit.SECONDS);
                    assertThat(seen).isNotNull();
                    assertThat(((Task) seen[0]).headers()).isEmpty();
                    assertThat(tracer.getSpans()).isEmpty();
                });
    }

    private QueueConsumer consumer() {
        return new QueueConsumer() {
            @Override
            public String queueId() {
                return "work";
            }

            @Override
            public void handle(TaskBatch batch) {
                Span current = tracer.currentSpan();
                for (Task task : batch.tasks()) {
                    handled.add(new Object[] {task, current == null ? null : current.context().spanId()});
                }
            }
        };
    }

    private List<SimpleSpan> spans(String name) {
        return tracer.getSpans().stream().filter(s -> name.equals(s.getName())).toList();
    }

    /** A W3C-like propagator for the SimpleTracer, which comes without one: one field, trace id and span id. */
    private static final class TraceparentPropagator implements Propagator {

        static final String FIELD = "traceparent";
        private final SimpleTracer tracer;

        TraceparentPropagator(SimpleTracer tracer) {
            this.tracer = tracer;
        }

        @Override
        public List<String> fields() {
            return List.of(FIELD);
        }

        @Override
        public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
            setter.set(carrier, FIELD, "00-" + context.traceId() + "-" + context.spanId() + "-01");
        }

        @Override
        public <C> Span.Builder extract(C carrier, Getter<C> getter) {
            String value = getter.get(carrier, FIELD);
            if (value == null) {
                return tracer.spanBuilder();
            }
            String[] parts = value.split("-");
            return tracer.spanBuilder().setParent(tracer.traceContextBuilder().traceId(parts[1]).spanId(parts[2])
                    .sampled(true).build());
        }
    }
}
