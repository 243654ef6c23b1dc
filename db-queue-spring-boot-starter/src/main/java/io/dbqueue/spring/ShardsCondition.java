package io.dbqueue.spring;

import io.dbqueue.ShardSet;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.Map;

/** The queues are sharded: {@code dbq.shards} is configured, or the application defines a {@link ShardSet} bean. */
final class ShardsCondition extends AnyNestedCondition {

    ShardsCondition() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @Conditional(ShardProperties.class)
    static final class Properties {
    }

    @ConditionalOnBean(ShardSet.class)
    static final class ApplicationsShardSet {
    }

    static final class ShardProperties extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment()).bind("dbq.shards", Bindable.mapOf(String.class, Object.class))
                    .orElse(Map.of()).isEmpty() ? ConditionOutcome.noMatch("dbq.shards is empty")
                    : ConditionOutcome.match("dbq.shards is configured");
        }
    }

    /** One database: neither {@code dbq.shards} nor a {@link ShardSet} bean. */
    static final class None extends SpringBootCondition implements ConfigurationCondition {

        @Override
        public ConfigurationPhase getConfigurationPhase() {
            return ConfigurationPhase.REGISTER_BEAN;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionOutcome sharded = new ShardsCondition().getMatchOutcome(context, metadata);
            return new ConditionOutcome(!sharded.isMatch(), sharded.getConditionMessage());
        }
    }
}
