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
            beanFactory.registerSingleton(beanName + "#" + method.getName() + "#dbQueueListener",
                    new MethodQueueConsumer(bean, method, invocable, annotation, serializer));
        });
        return bean;
    }
}
