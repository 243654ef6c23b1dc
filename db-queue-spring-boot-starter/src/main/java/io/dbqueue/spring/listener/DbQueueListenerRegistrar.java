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
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Registers each {@link DbQueueListener} method of the application's beans as a {@link MethodQueueConsumer} singleton. */
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
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            invocable.setAccessible(true);
            // the parameter types too: overloads of one name are two listeners
            String parameters = Arrays.stream(method.getParameterTypes()).map(Class::getName)
                    .collect(Collectors.joining(",", "(", ")"));
            beanFactory.registerSingleton(beanName + "#" + method.getName() + parameters + "#dbQueueListener",
                    new MethodQueueConsumer(bean, method, invocable, annotation,
                            beanFactory.resolveEmbeddedValue(annotation.queue()), serializer));
        });
        return bean;
    }
}
