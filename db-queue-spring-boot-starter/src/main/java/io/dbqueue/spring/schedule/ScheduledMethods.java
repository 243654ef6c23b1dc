package io.dbqueue.spring.schedule;

import io.dbqueue.spring.InvalidConsumerException;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the {@link DbQueueScheduled} methods of the application's beans, and registers for each queue
 * they name one {@link ScheduledMethodsConsumer} singleton that calls them.
 */
public final class ScheduledMethods implements BeanPostProcessor, BeanFactoryAware {

    private ConfigurableListableBeanFactory beanFactory;
    private final List<ScheduledMethod> found = new ArrayList<>(); // guarded by this
    private final Map<String, ScheduledMethodsConsumer> consumers = new HashMap<>(); // guarded by this

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public synchronized Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> target = AopUtils.getTargetClass(bean);
        if (!AnnotationUtils.isCandidateClass(target, DbQueueScheduled.class)) {
            return bean;
        }
        Map<Method, DbQueueScheduled> methods = MethodIntrospector.selectMethods(target,
                (MethodIntrospector.MetadataLookup<DbQueueScheduled>) m -> {
                    DbQueueScheduled found = AnnotatedElementUtils.findMergedAnnotation(m, DbQueueScheduled.class);
                    return found == null ? null : resolved(found);
                });
        methods.forEach((method, annotation) -> {
            String where = method.getDeclaringClass().getName() + "." + method.getName();
            if (method.getParameterCount() != 0) {
                throw new InvalidConsumerException("@DbQueueScheduled method " + where + " must take no parameter; it takes "
                        + method.getParameterCount());
            }
            String name = annotation.name().isEmpty() ? target.getSimpleName() + "." + method.getName()
                    : annotation.name();
            if (found.stream().anyMatch(m -> m.name().equals(name))) {
                throw new InvalidConsumerException("@DbQueueScheduled method " + where + " has the schedule name '" + name
                        + "' of another; give one of them a name");
            }
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            invocable.setAccessible(true);
            ScheduledMethod scheduled = new ScheduledMethod(name, annotation, bean, invocable);
            found.add(scheduled);
            consumers.computeIfAbsent(annotation.queue(), queue -> {
                ScheduledMethodsConsumer consumer = new ScheduledMethodsConsumer(queue);
                beanFactory.registerSingleton("dbQueueScheduled#" + queue, consumer);
                return consumer;
            }).add(scheduled);
        });
        return bean;
    }

    /** {@code annotation} with the placeholders of its texts resolved, as {@code @Scheduled(cron = "${...}")}'s are. */
    private DbQueueScheduled resolved(DbQueueScheduled annotation) {
        Map<String, Object> attributes = AnnotationUtils.getAnnotationAttributes(annotation);
        attributes.replaceAll((name, value) -> value instanceof String text ? beanFactory.resolveEmbeddedValue(text)
                : value);
        return AnnotationUtils.synthesizeAnnotation(attributes, DbQueueScheduled.class, null);
    }

    /** The methods found so far. */
    synchronized List<ScheduledMethod> all() {
        return List.copyOf(found);
    }
}
