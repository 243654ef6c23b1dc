package io.dbqueue.spring.listener;

import org.springframework.core.ResolvableType;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A listener method's message type with every type variable bound by its bean's class, for the payload's reader. */
final class MessageTypes {

    private MessageTypes() {
    }

    /**
     * {@code type} with each of its classes' type variables replaced, all the way down, by what {@code beanClass}
     * binds it to: a generic base class's {@code on(T message)} in a class that extends it with {@code Envelope<Order>}
     * reads an {@code Envelope<Order>}. Null when one is left open (bound by no class, even if bounded, or a method's
     * own), or the type is a wildcard or a generic array: its payload could only be read as maps.
     */
    static Type bound(Type type, Class<?> beanClass) {
        if (type instanceof Class<?>) {
            return type;
        }
        if (type instanceof ParameterizedType parameterized) {
            Type[] arguments = parameterized.getActualTypeArguments();
            Type[] bound = new Type[arguments.length];
            for (int i = 0; i < arguments.length; i++) {
                bound[i] = bound(arguments[i], beanClass);
                if (bound[i] == null) {
                    return null;
                }
            }
            return new Parameterized((Class<?>) parameterized.getRawType(), bound, parameterized.getOwnerType());
        }
        if (type instanceof TypeVariable<?> variable && variable.getGenericDeclaration() instanceof Class<?> owner) {
            ResolvableType seen = ResolvableType.forClass(beanClass).as(owner);
            int index = List.of(owner.getTypeParameters()).indexOf(variable);
            Type argument = seen.hasGenerics() ? seen.getGeneric(index).getType() : null;
            return argument == null || argument.equals(variable) ? null : bound(argument, beanClass);
        }
        return null;
    }

    /** A parameterized type made of bound parts, equal to the JDK's own of the same parts. */
    private static final class Parameterized implements ParameterizedType {

        private final Class<?> raw;
        private final Type[] arguments;
        private final Type owner;

        Parameterized(Class<?> raw, Type[] arguments, Type owner) {
            this.raw = raw;
            this.arguments = arguments;
            this.owner = owner;
        }

        @Override
        public Type[] getActualTypeArguments() {
            return arguments.clone();
        }

        @Override
        public Type getRawType() {
            return raw;
        }

        @Override
        public Type getOwnerType() {
            return owner;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ParameterizedType other && raw.equals(other.getRawType())
                    && Objects.equals(owner, other.getOwnerType())
                    && Arrays.equals(arguments, other.getActualTypeArguments());
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(arguments) ^ Objects.hashCode(owner) ^ raw.hashCode();
        }

        @Override
        public String toString() {
            return raw.getTypeName() + Arrays.stream(arguments).map(Type::getTypeName)
                    .collect(java.util.stream.Collectors.joining(", ", "<", ">"));
        }
    }
}
