package io.dbqueue.spring;

import io.dbqueue.queue.QueueProducer;
import org.springframework.beans.factory.InjectionPoint;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;

/**
 * Reports a queue id that {@code dbq.queues} does not configure as "APPLICATION FAILED TO START" with the configured
 * ids, not a stack trace: named by a consumer ({@code @DbQueueListener(queue = ...)}, a {@code QueueConsumer}), by
 * a call to {@link DbQueues}, or by the {@code @Qualifier} of an injected {@link QueueProducer}. Ahead of Spring
 * Boot's own analysis of a missing bean, which would not list the ids.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnknownQueueIdFailureAnalyzer implements FailureAnalyzer {

    private final Environment environment; // null when the application failed before it had one

    UnknownQueueIdFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof UnknownQueueIdException unknown) {
                return analysis(unknown.getMessage(), unknown.id(), unknown.configured(), failure);
            }
            if (cause instanceof UnsatisfiedDependencyException unsatisfied
                    && unsatisfied.getCause() instanceof NoSuchBeanDefinitionException
                    && unsatisfied.getInjectionPoint() != null) {
                FailureAnalysis analysis = qualifiedProducer(unsatisfied.getInjectionPoint(), failure);
                if (analysis != null) {
                    return analysis;
                }
            }
        }
        return null;
    }

    /** A QueueProducer injected with {@code @Qualifier("id")} where id is no configured queue's. */
    private FailureAnalysis qualifiedProducer(InjectionPoint point, Throwable failure) {
        if (point.getDeclaredType() != QueueProducer.class || environment == null) {
            return null;
        }
        Set<String> configured = DbQueueProperties.queueIds(environment);
        for (Annotation annotation : point.getAnnotations()) {
            if (annotation instanceof Qualifier qualifier && !configured.contains(qualifier.value())) {
                return analysis("@Qualifier(\"" + qualifier.value() + "\") on " + describe(point)
                                + " names queue id '" + qualifier.value() + "', which is not configured under dbq.queues"
                                + " (configured: " + configured + ")",
                        qualifier.value(), List.copyOf(configured), failure);
            }
        }
        return null;
    }

    /** E.g. "parameter 0 of constructor in com.example.Sender", as Spring Boot names an injection point. */
    private static String describe(InjectionPoint point) {
        if (point.getField() != null) {
            return "field '" + point.getField().getName() + "' in " + point.getField().getDeclaringClass().getName();
        }
        var parameter = point.getMethodParameter();
        return "parameter " + parameter.getParameterIndex() + " of " + (parameter.getMethod() == null ? "constructor"
                : "method '" + parameter.getMethod().getName() + "'") + " in " + parameter.getDeclaringClass().getName();
    }

    private static FailureAnalysis analysis(String description, String id, List<String> configured, Throwable failure) {
        return new FailureAnalysis(description,
                "Name one of the configured queue ids " + configured + ", or configure queue '" + id
                        + "' with dbq.queues." + id + ".table (see docs/spring-boot.md).", failure);
    }
}
