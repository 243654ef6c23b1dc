package io.dbqueue.spring.listener;

import io.dbqueue.spring.PayloadSerializer;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Finds {@link DbQueueListener} methods on the application's beans and registers each as a
 * {@link io.dbqueue.spring.QueueConsumer} singleton, which the starter's workers then run like any
 * other consumer bean. A method whose signature cannot be a listener fails start-up, naming it.
 */
public final class DbQueueListenerRegistrar implements BeanPostProcessor, BeanFactoryAware {

    private ConfigurableListableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> target = AopUtils.getTargetClass(bean);
        if (!AnnotationUtils.isCandidateClass(target, DbQueueListener.class)) {
            return bean;
        }
        Map<Method, DbQueueListener> methods = MethodIntrospector.selectMethods(target,
                (MethodIntrospector.MetadataLookup<DbQueueListener>) m ->
                        AnnotatedElementUtils.findMergedAnnotation(m, DbQueueListener.class));
        Supplier<PayloadSerializer> serializer = () -> beanFactory.getBeanProvider(PayloadSerializer.class)
                .getIfAvailable(() -> PayloadSerializer.STRINGS);
        methods.forEach((method, annotation) -> {
            ListenerMethod listener = ListenerMethod.of(method);
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            invocable.setAccessible(true);
            beanFactory.registerSingleton(beanName + "#" + method.getName() + "#dbQueueListener",
                    new MethodQueueConsumer(bean, invocable, listener, annotation, serializer));
        });
        return bean;
    }
}
