package io.dbqueue.spring;

import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.annotation.Annotation;

/**
 * Keeps the beans with methods of a starter annotation ({@code @DbQueueListener}, {@code @DbQueueScheduled}) out of
 * lazy initialization ({@code spring.main.lazy-initialization}), as Spring Boot does for {@code @Scheduled}: the
 * methods are found when such a bean is made, and a bean nothing injects was never made, so its queue had no consumer
 * and its schedule no definition, and nothing said so.
 */
public final class EagerAnnotatedBeans {

    private EagerAnnotatedBeans() {
    }

    public static LazyInitializationExcludeFilter withMethodsAnnotated(Class<? extends Annotation> annotation) {
        return (beanName, definition, beanType) -> beanType != null && AnnotationUtils.isCandidateClass(beanType, annotation)
                && !MethodIntrospector.selectMethods(beanType, (MethodIntrospector.MetadataLookup<Annotation>) m ->
                AnnotatedElementUtils.findMergedAnnotation(m, annotation)).isEmpty();
    }
}
