package io.dbqueue.spring;

import io.dbqueue.queue.QueueProducer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.env.Environment;

/**
 * Makes each configured queue's producer injectable: a {@link QueueProducer} bean named
 * {@code <id>QueueProducer} and qualified by the queue id, so {@code @Autowired QueueProducer} works
 * with one queue and {@code @Qualifier("orders") QueueProducer} with several. The beans come from
 * {@link DbQueues}, created when first injected. None are registered when the application defines a
 * QueueProducer bean of its own.
 *
 * <p>Each is a factory-method bean definition ({@code DbQueues.producer(id)}), not an instance
 * supplier, so that Spring AOT can generate its registration. (Framework 7's {@code BeanRegistrar}
 * cannot attach the queue id as a qualifier.)
 */
final class QueueProducerRegistrar implements BeanDefinitionRegistryPostProcessor {

    private final Environment environment;

    QueueProducerRegistrar(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        ConfigurableListableBeanFactory beanFactory = (ConfigurableListableBeanFactory) registry;
        if (beanFactory.getBeanNamesForType(QueueProducer.class, true, false).length > 0) {
            return; // the application defines its own producers: back off, as @ConditionalOnMissingBean would
        }
        String[] dbQueues = beanFactory.getBeanNamesForType(DbQueues.class, true, false);
        if (dbQueues.length != 1) {
            return; // none, or the application's own several: nothing to make producers from by type
        }
        for (String id : DbQueueProperties.queueIds(environment)) {
            String name = id + "QueueProducer";
            if (registry.containsBeanDefinition(name)) {
                continue;
            }
            RootBeanDefinition producer = new RootBeanDefinition();
            producer.setFactoryBeanName(dbQueues[0]);
            producer.setFactoryMethodName("producer");
            producer.getConstructorArgumentValues().addIndexedArgumentValue(0, id);
            producer.setTargetType(QueueProducer.class);
            producer.addQualifier(new AutowireCandidateQualifier(Qualifier.class, id));
            producer.setLazyInit(true); // a user's own DbQueues need not know every configured id
            registry.registerBeanDefinition(name, producer);
        }
    }
}
